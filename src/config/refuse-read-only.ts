/** Refusing to write where the user has taken away write permission, instead of working around it. */

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from './errors.js';

/**
 * Resolves when `path` is missing or writable by its owner and by this process. Throws ConfigError
 * (CONFIG_READ_ONLY, exit 2) otherwise. The owner's write bit is checked explicitly because root
 * may write anywhere: a folder or file made read-only (0500, 0400) is a decision tool respects.
 */
export async function refuseReadOnly(path: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return;
  const ownerMayWrite = (info.mode & 0o200) !== 0;
  const processMayWrite = ownerMayWrite && (await access(path, constants.W_OK).then(() => true, () => false));
  if (processMayWrite) return;
  const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
  throw new ConfigError(
    'CONFIG_READ_ONLY',
    `${path} is read-only (mode ${mode}); nothing was changed`,
    `tool does not change permissions it finds. To let it write, run: chmod u+w ${path}`,
  );
}

/** refuseReadOnly for each file and its folder, so a change to several files stops before its first write. */
export async function refuseReadOnlyFiles(files: readonly string[]): Promise<void> {
  for (const file of files) {
    await refuseReadOnly(dirname(file));
    await refuseReadOnly(file);
  }
}
