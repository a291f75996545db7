/**
 * stdout and stderr as commands see them: a write error on the real stream (a closed pipe, a full
 * disk, a terminal that hung up) never reaches a command as an exception or an 'error' event.
 */
import { Writable } from 'node:stream';

/**
 * A stream that forwards every write to `target` until a write fails; from then on it is a sink
 * that drops what it is given. `onFailure` is called once, with the first error. It never emits
 * 'error', and ending it leaves `target` open (process.stdout must not be ended).
 */
export class GuardedStream extends Writable {
  /** The first write error of the target, if any. */
  failure: NodeJS.ErrnoException | undefined;

  constructor(
    private readonly target: Writable,
    private readonly onFailure: (error: NodeJS.ErrnoException) => void = () => undefined,
  ) {
    // Strings go through as they are: converting a large run record to a Buffer first is a copy for nothing.
    super({ decodeStrings: false });
    // process.stdout and process.stderr emit 'error' again on every later failed write.
    target.on('error', (error: NodeJS.ErrnoException) => this.fail(error));
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.failure !== undefined) return done();
    const forward = (error?: Error | null) => {
      if (error) this.fail(error as NodeJS.ErrnoException);
      done();
    };
    if (typeof chunk === 'string') this.target.write(chunk, encoding, forward);
    else this.target.write(chunk, forward);
  }

  override _final(done: (error?: Error | null) => void): void {
    done();
  }

  private fail(error: NodeJS.ErrnoException): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.onFailure(error);
  }
}
