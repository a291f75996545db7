/**
 * A file that `--report`, `--har` and `--junit` write: created beside its final path under a
 * temporary name (mode 0600: it holds the requests of a run), filled, then renamed over the path,
 * so a reader never sees half a report and a failed write leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { FileError, ToolError } from '../../errors/tool-error.js';

export interface OutputFile {
  /** The path as the user gave it, for messages. */
  readonly path: string;
  /** Appends text; writes are queued in order, and a failure is reported by `commit()`. */
  write(text: string): void;
  /** Resolves when the writes queued so far are done (or one failed): a caller copying a large file in waits on it between chunks. */
  flushed(): Promise<void>;
  /** Waits for the writes, closes the file and renames it over the path. Rejects with a REPORT_WRITE_FAILED ToolError if any write, or the rename, failed. */
  commit(): Promise<void>;
  /** Removes the temporary file (a run that never started); does nothing after `commit()`. */
  discard(): Promise<void>;
}

/**
 * Opens the temporary file of `path` (relative to `cwd`) for `flag`. Throws FileError (exit 2),
 * before any request is sent, when the path is a folder or its folder cannot be written to.
 */
export async function openOutputFile(path: string, cwd: string, flag: string): Promise<OutputFile> {
  const target = resolve(cwd, path);
  const refuse = (why: string): never => {
    throw new FileError(`cannot write the ${flag} file ${path}: ${why}`, `Give ${flag} a file path in a folder that exists and that you can write to.`);
  };
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) refuse('it is a folder');
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle;
  try {
    handle = await open(temporary, 'wx', 0o600);
  } catch (error) {
    return refuse((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }

  let queue: Promise<unknown> = Promise.resolve();
  let failure: unknown;
  let settled = false;
  const close = () => handle.close().catch(() => undefined);
  return {
    path,
    write(text) {
      if (settled || failure !== undefined) return;
      queue = queue.then(() => handle.write(text)).catch((error: unknown) => (failure ??= error));
    },
    async flushed() {
      await queue;
    },
    async commit() {
      if (settled) return;
      settled = true;
      await queue;
      await close();
      try {
        if (failure !== undefined) throw failure;
        await rename(temporary, target);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw new ToolError('REPORT_WRITE_FAILED', `could not write the ${flag} file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    },
    async discard() {
      if (settled) return;
      settled = true;
      await queue;
      await close();
      await unlink(temporary).catch(() => undefined);
    },
  };
}
