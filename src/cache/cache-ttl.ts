/** How long a fetched description is used without asking the server again. */

import { CacheError } from './errors.js';

/** Ten minutes: long enough for a burst of runs, short enough that a changed description shows up soon. */
export const DEFAULT_CACHE_TTL_SECONDS = 600;

const MAX_TTL_SECONDS = 365 * 24 * 3600;

/**
 * The freshness lifetime in milliseconds: `TOOL_CACHE_TTL` (whole seconds, 0 = always revalidate)
 * or the default. Throws CacheError when the variable is set to anything else.
 */
export function cacheTtlMs(env: Record<string, string | undefined>): number {
  const raw = env.TOOL_CACHE_TTL;
  if (raw === undefined || raw.trim() === '') return DEFAULT_CACHE_TTL_SECONDS * 1000;
  const value = raw.trim();
  if (!/^\d+$/.test(value) || Number(value) > MAX_TTL_SECONDS) {
    throw new CacheError(
      'CACHE_TTL_INVALID',
      `TOOL_CACHE_TTL must be a whole number of seconds between 0 and ${MAX_TTL_SECONDS}, got ${JSON.stringify(raw)}`,
      `Unset it to use the default (${DEFAULT_CACHE_TTL_SECONDS} s), or set e.g. TOOL_CACHE_TTL=0 to revalidate on every run.`,
    );
  }
  return Number(value) * 1000;
}
