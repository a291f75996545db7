/** The small parts of the description cache: TTL parsing, the self-containment test, ages, clearing. */
import { describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheTtlMs } from '../../../src/cache/cache-ttl.js';
import { clearDescriptionCache } from '../../../src/cache/clear-description-cache.js';
import { CacheError } from '../../../src/cache/errors.js';
import { formatAge } from '../../../src/cache/format-age.js';
import { hasOnlyLocalRefs } from '../../../src/cache/local-refs.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

describe('cacheTtlMs', () => {
  it('is ten minutes by default and TOOL_CACHE_TTL seconds when set', () => {
    expect(cacheTtlMs({})).toBe(600_000);
    expect(cacheTtlMs({ TOOL_CACHE_TTL: '' })).toBe(600_000);
    expect(cacheTtlMs({ TOOL_CACHE_TTL: '0' })).toBe(0);
    expect(cacheTtlMs({ TOOL_CACHE_TTL: ' 3600 ' })).toBe(3_600_000);
  });

  it.each(['-1', '1.5', '10m', '0x10', '99999999999'])('refuses TOOL_CACHE_TTL=%s with exit 2', (value) => {
    let caught: unknown;
    try {
      cacheTtlMs({ TOOL_CACHE_TTL: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CacheError);
    expect(exitCodeFor((caught as CacheError).kind)).toBe(2);
    expect((caught as CacheError).message).toContain('TOOL_CACHE_TTL');
  });
});

describe('hasOnlyLocalRefs', () => {
  it('accepts documents whose references all start with #, in YAML and JSON', () => {
    expect(hasOnlyLocalRefs('paths: {}')).toBe(true);
    expect(hasOnlyLocalRefs("a:\n  $ref: '#/components/schemas/A'\nb: { $ref: \"#/x\" }")).toBe(true);
    expect(hasOnlyLocalRefs('{"a":{"$ref":"#/x"},"b":{"$ref" : "#/y"}}')).toBe(true);
  });

  it('rejects references to other files or URLs, and $ref written in ways it does not recognise', () => {
    expect(hasOnlyLocalRefs("a:\n  $ref: './common.yaml#/A'\nb: { $ref: '#/x' }")).toBe(false);
    expect(hasOnlyLocalRefs('{"a":{"$ref":"https://example.com/x.json"}}')).toBe(false);
    expect(hasOnlyLocalRefs('description: write $ref to refer')).toBe(false);
  });
});

describe('formatAge', () => {
  it('says seconds, minutes, hours or days', () => {
    expect([formatAge(40_000), formatAge(12 * 60_000), formatAge(3 * 3600_000), formatAge(3 * 86_400_000), formatAge(-5)]).toEqual(['40 s', '12 min', '3 h', '3 days', '0 s']);
  });
});

describe('clearDescriptionCache', () => {
  it('removes the folder and counts the descriptions, indexes and documents it held', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'tool-clear-')), 'descriptions');
    await mkdir(join(dir, 'parsed'), { recursive: true });
    await mkdir(join(dir, 'documents'), { recursive: true });
    await writeFile(join(dir, 'a.json'), '{}');
    await writeFile(join(dir, 'a.0123.body'), 'x');
    await writeFile(join(dir, 'parsed', 'p.json'), '{}');
    await writeFile(join(dir, 'parsed', 'q.json'), '{}');
    await writeFile(join(dir, 'documents', 'd.json'), '{}');
    expect(await clearDescriptionCache(dir)).toEqual({ descriptions: 1, indexes: 2, documents: 1 });
    expect(await readdir(join(dir, '..'))).toEqual([]);
    expect(await clearDescriptionCache(dir)).toEqual({ descriptions: 0, indexes: 0, documents: 0 });
  });
});
