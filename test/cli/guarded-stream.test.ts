/** GuardedStream: what commands write to when the real stdout or stderr may fail. */
import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { GuardedStream } from '../../src/cli/guarded-stream.js';

/** A stream that accepts `accepted` writes, then fails every write with `code` (as a closed pipe does). */
function failingAfter(accepted: number, code: string): Writable & { received: string[]; ended: boolean } {
  const target = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (target.received.length >= accepted) return done(Object.assign(new Error(`write ${code}`), { code }));
      target.received.push(chunk.toString());
      done();
    },
  }) as Writable & { received: string[]; ended: boolean };
  target.received = [];
  target.ended = false;
  target.on('finish', () => (target.ended = true));
  return target;
}

const written = (stream: Writable, text: string) => new Promise<void>((resolve) => stream.write(text, () => resolve()));

describe('GuardedStream', () => {
  it('forwards writes until one fails, then drops the rest without an error event', async () => {
    const target = failingAfter(2, 'EPIPE');
    const failures: string[] = [];
    const guarded = new GuardedStream(target, (error) => failures.push(error.code ?? ''));
    const errors: unknown[] = [];
    guarded.on('error', (error) => errors.push(error));
    for (const line of ['a\n', 'b\n', 'c\n', 'd\n', 'e\n']) await written(guarded, line);
    expect(target.received).toEqual(['a\n', 'b\n']);
    expect(failures).toEqual(['EPIPE']);
    expect(guarded.failure?.code).toBe('EPIPE');
    expect(errors).toEqual([]);
  });

  it('treats an error event on the target as a failure too', async () => {
    const target = failingAfter(10, 'EIO');
    const guarded = new GuardedStream(target);
    target.emit('error', Object.assign(new Error('hung up'), { code: 'EIO' }));
    await written(guarded, 'dropped\n');
    expect(guarded.failure?.code).toBe('EIO');
    expect(target.received).toEqual([]);
  });

  it('leaves the target open when it is ended', async () => {
    const target = failingAfter(10, 'EPIPE');
    const guarded = new GuardedStream(target);
    await new Promise<void>((resolve) => guarded.end('last\n', () => resolve()));
    expect(target.received).toEqual(['last\n']);
    expect(target.ended).toBe(false);
  });
});
