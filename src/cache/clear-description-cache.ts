/** `tool cache clear`: forgetting every cached description and parsed index. */

import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface ClearedCache {
  /** Fetched descriptions removed (their bodies and validators). */
  descriptions: number;
  /** Parsed operation indexes removed (of fetched and local descriptions). */
  indexes: number;
}

/** Deletes the descriptions folder `dir` and everything in it; a missing folder counts as empty. Throws the fs error otherwise. */
export async function clearDescriptionCache(dir: string): Promise<ClearedCache> {
  const count = async (folder: string) => (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).length;
  const cleared = { descriptions: await count(dir), indexes: await count(join(dir, 'parsed')) };
  await rm(dir, { recursive: true, force: true });
  return cleared;
}
