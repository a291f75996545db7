/** Replacing a file so that readers see the old or the new content, never half of it. */

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Mode of the new file (e.g. 0o600); set before any byte is written. */
  mode: number;
  /** Mode of the containing directory when tool creates it (e.g. 0o700); an existing one loses what this mode denies, never gains. */
  dirMode: number;
}

/**
 * Writes `data` to a temporary file in the same directory with the final mode, fsyncs it and
 * renames it over `file` (rename is atomic within a filesystem). Throws the fs error on failure,
 * after removing the temporary file.
 */
export async function writeFileAtomic(file: string, data: string, options: AtomicWriteOptions): Promise<void> {
  const dir = dirname(file);
  await ensureDir(dir, options.dirMode);
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx' fails rather than follow a symlink someone planted at the temporary name.
  const handle = await open(temp, 'wx', options.mode);
  try {
    // The umask may have narrowed the mode at creation; make it exactly what was asked.
    await handle.chmod(options.mode);
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(dir);
}

async function ensureDir(dir: string, mode: number): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  const created = await mkdir(dir, { mode }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      return false;
    },
  );
  // The umask may have narrowed the mode of a folder tool just created.
  if (created) return chmod(dir, mode);
  // tool owns this directory (…/tool): a wider mode left by an older run is narrowed, but a
  // permission the user took away (a read-only 0500 folder) is never given back.
  const current = (await stat(dir)).mode & 0o7777;
  if ((current & ~mode) !== 0) await chmod(dir, current & mode);
}

// Makes the rename itself durable; some filesystems refuse to fsync a directory, which is harmless.
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort only.
  }
}
