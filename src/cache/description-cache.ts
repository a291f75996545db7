/** The description cache: where it lives, how long a copy stays fresh, and its two stores. */

import { join } from 'node:path';
import { ConfigError } from '../config/errors.js';
import { configPaths } from '../config/paths.js';
import { bodyStore, type BodyStore } from './body-store.js';
import { cacheMaxBytes } from './cache-size.js';
import { cacheTtlMs } from './cache-ttl.js';
import { evictEntries } from './evict-entries.js';
import { parsedStore, type ParsedStore } from './parsed-store.js';

export interface DescriptionCache {
  /** `$XDG_CACHE_HOME/tool/descriptions` */
  dir: string;
  /** Fetched bodies with their ETag, Last-Modified and fetch time. */
  bodies: BodyStore;
  /** Operation indexes, keyed by location and by the body hash (or file mtime and size) they were built from. */
  parsed: ParsedStore;
  /** Freshness lifetime of a fetched body (TOOL_CACHE_TTL, default 10 minutes). */
  ttlMs: number;
  /** Size cap of the folder (TOOL_CACHE_MAX_MIB, default 100 MiB); each write evicts the least recently used entries past it. */
  maxBytes: number;
  now: () => number;
}

/** The descriptions folder under a cache home (`$XDG_CACHE_HOME/tool`). */
export function descriptionCacheDir(cacheDir: string): string {
  return join(cacheDir, 'descriptions');
}

/**
 * The cache for this environment, or undefined when neither XDG_CACHE_HOME nor HOME is usable
 * (descriptions are then fetched every time). Throws CacheError for a bad TOOL_CACHE_TTL or
 * TOOL_CACHE_MAX_MIB.
 */
export function openDescriptionCache(env: Record<string, string | undefined>, now: () => number = Date.now): DescriptionCache | undefined {
  const ttlMs = cacheTtlMs(env);
  const maxBytes = cacheMaxBytes(env);
  let cacheDir: string;
  try {
    cacheDir = configPaths(env).cacheDir;
  } catch (error) {
    if (error instanceof ConfigError && error.code === 'CONFIG_HOME_MISSING') return undefined;
    throw error;
  }
  return descriptionCacheIn(descriptionCacheDir(cacheDir), { ttlMs, maxBytes, now });
}

/** The cache in the descriptions folder `dir`, its writes kept under `maxBytes` by evicting least recently used entries. */
export function descriptionCacheIn(dir: string, settings: { ttlMs: number; maxBytes: number; now: () => number }): DescriptionCache {
  const evict = (files: string[]) => evictEntries(dir, settings.maxBytes, files);
  return { dir, bodies: bodyStore(dir, evict), parsed: parsedStore(join(dir, 'parsed'), evict), ...settings };
}
