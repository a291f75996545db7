/** How much disk the description cache may use before the least recently used entries go. */

import { CacheError } from './errors.js';

/** 100 MiB: room for dozens of large descriptions and their indexes. */
export const DEFAULT_CACHE_MAX_MIB = 100;

const MAX_MIB = 1024 * 1024;

/**
 * The cache's size cap in bytes: `TOOL_CACHE_MAX_MIB` (whole MiB, 0 = keep only the entry just
 * written) or the default. Throws CacheError when the variable is set to anything else.
 */
export function cacheMaxBytes(env: Record<string, string | undefined>): number {
  const raw = env.TOOL_CACHE_MAX_MIB;
  if (raw === undefined || raw.trim() === '') return DEFAULT_CACHE_MAX_MIB * 1024 * 1024;
  const value = raw.trim();
  if (!/^\d+$/.test(value) || Number(value) > MAX_MIB) {
    throw new CacheError(
      'CACHE_SIZE_INVALID',
      `TOOL_CACHE_MAX_MIB must be a whole number of MiB between 0 and ${MAX_MIB}, got ${JSON.stringify(raw)}`,
      `Unset it to use the default (${DEFAULT_CACHE_MAX_MIB} MiB), or set e.g. TOOL_CACHE_MAX_MIB=500.`,
    );
  }
  return Number(value) * 1024 * 1024;
}
