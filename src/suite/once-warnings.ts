/**
 * The runs of a suite print the same warnings each time (a source sent without credentials, a
 * document's warnings, a response check): each is said once, on the stream the suite gives its
 * runs, and the summary counts the repeats left out.
 */
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';

/** Distinct warnings remembered: past this many, a new one is printed each time (memory stays bounded). */
const REMEMBERED = 10_000;

export interface OnceWarnings {
  readonly stream: Writable;
  /** Warnings left out because they had been printed before. */
  repeats(): number;
}

/** A stream onto `target` that passes everything but a `warning:` chunk it has passed before. */
export function onceWarnings(target: Writable): OnceWarnings {
  const seen = new Set<string>();
  let repeats = 0;
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (stripVTControlCharacters(text).startsWith('warning:')) {
        if (seen.has(text)) {
          repeats++;
          done();
          return;
        }
        if (seen.size < REMEMBERED) seen.add(text);
      }
      target.write(chunk);
      done();
    },
  });
  return { stream, repeats: () => repeats };
}
