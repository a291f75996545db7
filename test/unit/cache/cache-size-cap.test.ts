/** The description cache's size cap: least recently used entries go, never the one just written. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheMaxBytes } from '../../../src/cache/cache-size.js';
import { descriptionCacheIn } from '../../../src/cache/description-cache.js';
import { CacheError } from '../../../src/cache/errors.js';
import { sha256 } from '../../../src/cache/sha256.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'tool-cache-cap-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const KIB = 1024;
const body = (letter: string) => letter.repeat(10 * KIB);

/** Sets the mtime of every file of `url`'s entry, as if it was last used at `seconds`. */
async function lastUsed(dir: string, url: string, seconds: number): Promise<void> {
  for (const name of await readdir(dir)) if (name.startsWith(sha256(url))) await utimes(join(dir, name), seconds, seconds);
}

async function cachedUrls(dir: string, urls: string[]): Promise<string[]> {
  const names = await readdir(dir);
  return urls.filter((url) => names.includes(`${sha256(url)}.json`));
}

describe('the description cache size cap', () => {
  it('evicts the least recently used entries once a write goes past the cap, never the one just written', async () => {
    const dir = join(home, 'lru', 'descriptions');
    const cache = descriptionCacheIn(dir, { ttlMs: 60_000, maxBytes: 25 * KIB, now: Date.now });
    const [a, b, c] = ['https://x.test/a.yaml', 'https://x.test/b.yaml', 'https://x.test/c.yaml'];
    await cache.bodies.save(a, body('a'), {}, Date.now());
    await cache.bodies.save(b, body('b'), {}, Date.now());
    // a was used after b: b is the least recently used.
    await lastUsed(dir, b, 1_000);
    await lastUsed(dir, a, 2_000);
    await cache.bodies.save(c, body('c'), {}, Date.now());
    expect(await cachedUrls(dir, [a, b, c])).toEqual([a, c]);
  });

  it('keeps an entry just written even when it alone is over the cap', async () => {
    const dir = join(home, 'tiny', 'descriptions');
    const cache = descriptionCacheIn(dir, { ttlMs: 60_000, maxBytes: KIB, now: Date.now });
    const [a, b] = ['https://x.test/a.yaml', 'https://x.test/b.yaml'];
    await cache.bodies.save(a, body('a'), {}, Date.now());
    await cache.bodies.save(b, body('b'), {}, Date.now());
    expect(await cachedUrls(dir, [a, b])).toEqual([b]);
  });

  it('marks a body as used when it is read, so a read entry outlives one written later but not read', async () => {
    const dir = join(home, 'touch', 'descriptions');
    const cache = descriptionCacheIn(dir, { ttlMs: 60_000, maxBytes: 25 * KIB, now: Date.now });
    const [a, b, c] = ['https://x.test/a.yaml', 'https://x.test/b.yaml', 'https://x.test/c.yaml'];
    const entryA = await cache.bodies.save(a, body('a'), {}, Date.now());
    await cache.bodies.save(b, body('b'), {}, Date.now());
    await lastUsed(dir, a, 1_000);
    await lastUsed(dir, b, 2_000);
    expect(await cache.bodies.readBody(entryA)).toBe(body('a'));
    expect((await stat(join(dir, `${sha256(a)}.${entryA.bodyHash}.body`))).mtimeMs).toBeGreaterThan(2_000_000);
    await cache.bodies.save(c, body('c'), {}, Date.now());
    expect(await cachedUrls(dir, [a, b, c])).toEqual([a, c]);
  });
});

describe('cacheMaxBytes', () => {
  it('is 100 MiB by default and TOOL_CACHE_MAX_MIB MiB when set', () => {
    expect(cacheMaxBytes({})).toBe(100 * 1024 * 1024);
    expect(cacheMaxBytes({ TOOL_CACHE_MAX_MIB: ' 5 ' })).toBe(5 * 1024 * 1024);
    expect(cacheMaxBytes({ TOOL_CACHE_MAX_MIB: '0' })).toBe(0);
  });

  it.each(['-1', '1.5', '10M', '0x10'])('refuses TOOL_CACHE_MAX_MIB=%s with exit 2', (value) => {
    let caught: unknown;
    try {
      cacheMaxBytes({ TOOL_CACHE_MAX_MIB: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CacheError);
    expect(exitCodeFor((caught as CacheError).kind)).toBe(2);
    expect((caught as CacheError).message).toContain('TOOL_CACHE_MAX_MIB');
  });
});
