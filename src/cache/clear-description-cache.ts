/** `tool cache clear`: forgetting every cached description, parsed index and parsed document. */

import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface ClearedCache {
  /** Fetched descriptions removed (their bodies and validators). */
  descriptions: number;
  /** Parsed operation indexes removed (of fetched and local descriptions). */
  indexes: number;
  /** Parsed Arazzo documents removed. */
  documents: number;
}

/** Deletes the descriptions folder `dir` and everything in it; a missing folder counts as empty. Throws the fs error otherwise. */
export async function clearDescriptionCache(dir: string): Promise<ClearedCache> {
  const count = async (folder: string) => (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).length;
  const cleared = { descriptions: await count(dir), indexes: await count(join(dir, 'parsed')), documents: await count(join(dir, 'documents')) };
  await rm(dir, { recursive: true, force: true });
  return cleared;
}
