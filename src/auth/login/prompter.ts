/** Asking the user on a terminal: visible answers and hidden secrets (raw mode, no echo). */

import type { Readable, Writable } from 'node:stream';
import { AuthError } from '../errors.js';

export interface Prompter {
  /** Asks `question` on stderr and reads one line; `hidden` echoes nothing. Throws AuthError (exit 130) on Ctrl-C or Ctrl-D. */
  ask(question: string, options?: { hidden?: boolean }): Promise<string>;
}

interface TtyInput extends Readable {
  isTTY: true;
  setRawMode(mode: boolean): unknown;
}

/** Whether `stdin` is a terminal that can be put in raw mode. */
export function isTtyInput(stdin: Readable): stdin is TtyInput {
  const tty = stdin as Partial<TtyInput>;
  return tty.isTTY === true && typeof tty.setRawMode === 'function';
}

/** A prompter on the terminal, or undefined when stdin is not one (scripts must then pass flags). */
export function ttyPrompter(stdin: Readable, stderr: Writable): Prompter | undefined {
  if (!isTtyInput(stdin)) return undefined;
  return {
    async ask(question, options) {
      stderr.write(question);
      return readLine(stdin, stderr, options?.hidden === true);
    },
  };
}

/** Reads one line in raw mode; characters are echoed only when not hidden. */
function readLine(stdin: TtyInput, stderr: Writable, hidden: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let line = '';
    let escape = false;
    const finish = (outcome: 'done' | 'cancelled', rest: string): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      // Typed ahead (or pasted with the answer): kept for the next question.
      if (rest !== '') stdin.unshift(Buffer.from(rest, 'utf8'));
      stderr.write('\n');
      if (outcome === 'done') resolve(line);
      else reject(new AuthError('LOGIN_ABORTED', 'login cancelled'));
    };
    const onData = (chunk: Buffer | string): void => {
      const chars = [...chunk.toString()];
      for (let i = 0; i < chars.length; i++) {
        const ch = chars[i] as string;
        if (escape) {
          // Skip a CSI sequence (arrow keys and the like) up to its final byte.
          if (ch !== '[' && ch >= '@' && ch <= '~') escape = false;
          continue;
        }
        if (ch === '\r' || ch === '\n') {
          const next = chars[i + 1] === '\n' && ch === '\r' ? i + 2 : i + 1;
          return finish('done', chars.slice(next).join(''));
        }
        if (ch === '\u0003' || (ch === '\u0004' && line === '')) return finish('cancelled', '');
        if (ch === '\u007f' || ch === '\b') {
          if (line !== '') {
            line = [...line].slice(0, -1).join('');
            if (!hidden) stderr.write('\b \b');
          }
          continue;
        }
        if (ch === '\u001b') {
          escape = true;
          continue;
        }
        if (ch < ' ') continue;
        line += ch;
        if (!hidden) stderr.write(ch);
      }
    };
    stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
