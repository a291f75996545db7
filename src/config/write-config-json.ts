/** Writing one of tool's JSON files: atomic, mode 0600, in a 0700 directory; never over a read-only one. */

import { dirname } from 'node:path';
import { ConfigError } from './errors.js';
import { refuseReadOnly } from './refuse-read-only.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * Writes `content` as pretty JSON atomically. Throws ConfigError: CONFIG_READ_ONLY when the file or
 * its folder has no write permission for its owner (the rename would otherwise replace a 0400 file),
 * CONFIG_WRITE_FAILED when the disk refuses.
 */
export async function writeConfigJson(file: string, content: unknown): Promise<void> {
  await refuseReadOnly(dirname(file));
  await refuseReadOnly(file);
  try {
    await writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError('CONFIG_WRITE_FAILED', `cannot write ${file} (${code})`, 'Check the permissions of the directory and the free space.');
  }
}
