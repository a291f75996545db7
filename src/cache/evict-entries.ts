/** Keeping the description cache under its size cap: least recently used entries go first. */

import { readdir, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';

interface CacheEntry {
  files: string[];
  bytes: number;
  /** Latest mtime of its files: writes set it, and hits touch it (see markUsed). */
  usedAt: number;
}

/**
 * Deletes whole entries of the cache folder `dir` (a fetched body with its meta file, a parsed
 * index under `parsed/`, or a parsed Arazzo document under `documents/`), least recently used first, until the folder holds at most `maxBytes`.
 * Entries holding any of `keep` (the one just written) are never deleted. Best effort: files that
 * vanish or refuse to go are skipped. Never throws.
 */
export async function evictEntries(dir: string, maxBytes: number, keep: readonly string[]): Promise<void> {
  const entries = [
    ...(await entriesIn(dir, '')).values(),
    ...(await entriesIn(join(dir, 'parsed'), 'parsed/')).values(),
    ...(await entriesIn(join(dir, 'documents'), 'documents/')).values(),
  ];
  let total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  if (total <= maxBytes) return;
  const kept = new Set(keep);
  entries.sort((a, b) => a.usedAt - b.usedAt);
  for (const entry of entries) {
    if (total <= maxBytes) return;
    if (entry.files.some((file) => kept.has(file))) continue;
    for (const file of entry.files) await unlink(file).catch(() => undefined);
    total -= entry.bytes;
  }
}

/** Marks a cache file as just used, so eviction keeps it longer; never throws. */
export async function markUsed(file: string): Promise<void> {
  // The wall clock, not the cache's TTL clock: eviction compares these with the mtimes writes leave.
  const time = new Date();
  await utimes(file, time, time).catch(() => undefined);
}

/** Files grouped by entry: `<url hash>.json` and `<url hash>.<body hash>.body` belong together. Temp files of writes in progress are left alone. */
async function entriesIn(folder: string, prefix: string): Promise<Map<string, CacheEntry>> {
  const entries = new Map<string, CacheEntry>();
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith('.') || !(name.endsWith('.json') || name.endsWith('.body'))) continue;
    const file = join(folder, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const key = `${prefix}${name.slice(0, name.indexOf('.'))}`;
    const entry = entries.get(key) ?? { files: [], bytes: 0, usedAt: 0 };
    entry.files.push(file);
    entry.bytes += info.size;
    entry.usedAt = Math.max(entry.usedAt, info.mtimeMs);
    entries.set(key, entry);
  }
  return entries;
}
