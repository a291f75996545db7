/** Opening a file the user named for reading, without ever waiting on a FIFO or reading a device. */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (which would hold a
// thread of libuv's pool, so that neither Ctrl-C nor SIGTERM could end the process).
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What was opened: a regular file (read it), a directory, or anything else (a FIFO, a device, a socket: refuse it). */
export type OpenedKind = 'file' | 'directory' | 'special';

/**
 * Opens `path` for reading without blocking and says what it is, from an fstat of what was opened
 * (not of a name that could be swapped in between). The caller reads only a `file` and closes the
 * handle in every case. Throws what `open` throws (ENOENT, EACCES, ...).
 */
export async function openForReading(path: string): Promise<{ handle: FileHandle; info: Stats; kind: OpenedKind }> {
  const handle = await open(path, READ_FLAGS);
  try {
    const info = await handle.stat();
    return { handle, info, kind: info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'special' };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
