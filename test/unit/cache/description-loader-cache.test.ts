/**
 * The description loader with the cache: parsed operation indexes of local files and fetched
 * descriptions are reused while their source is unchanged, and only for self-contained documents.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFile, copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDescriptionCache, type DescriptionCache } from '../../../src/cache/description-cache.js';
import { createPipeline } from '../../../src/http/create-pipeline.js';
import { loadDescription } from '../../../src/openapi/load-description.js';
import { createDescriptionLoader } from '../../../src/plan/description-loader.js';
import { startServer, type TestServer } from '../http/test-server.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const SMALL = join(FIXTURES, 'cache', 'small.openapi.yaml');
const pipeline = createPipeline({ retry: 0 });
let home: string;
let server: TestServer;
let served = '';

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'tool-loader-cache-'));
  server = await startServer((_hit, res) => {
    res.writeHead(200, { 'content-type': 'application/yaml' });
    res.end(served);
  });
});
afterAll(async () => {
  pipeline.close();
  await server.close();
  await rm(home, { recursive: true, force: true });
});

function cacheAt(name: string, clock = { now: Date.now() }): DescriptionCache {
  const cache = openDescriptionCache({ HOME: home, XDG_CACHE_HOME: join(home, name) }, () => clock.now);
  if (!cache) throw new Error('no cache');
  return cache;
}

/** Rewrites the single parsed index in the cache so that a hit is visible in the title. */
async function markIndex(cache: DescriptionCache, title: string): Promise<void> {
  const dir = join(cache.dir, 'parsed');
  const [file] = await readdir(dir);
  if (file === undefined) throw new Error('no parsed index was written');
  const index = JSON.parse(await readFile(join(dir, file), 'utf8')) as { description: { title: string } };
  index.description.title = title;
  await writeFile(join(dir, file), JSON.stringify(index));
}

// The fixtures live outside `home`: load them as sources the user named (docs/security.md).
const load = (cache: DescriptionCache, location: string) => createDescriptionLoader(pipeline, join(home, 'flow.arazzo.yaml'), { cache, explicitSources: true })(location);

describe('createDescriptionLoader with a cache', () => {
  it('reuses the parsed index of an unchanged local file, and parses again once the file changes', async () => {
    const cache = cacheAt('local');
    const file = join(home, 'local.openapi.yaml');
    await copyFile(SMALL, file);
    expect((await load(cache, file)).title).toBe('Cached API');
    await markIndex(cache, 'from the index');
    expect((await load(cache, file)).title).toBe('from the index');
    await appendFile(file, '\n');
    expect((await load(cache, file)).title).toBe('Cached API');
  });

  it('gives the same operations from the index as a fresh parse', async () => {
    const cache = cacheAt('same');
    const first = await load(cache, SMALL);
    const second = await load(cache, SMALL);
    const fresh = await loadDescription(SMALL, { baseFile: SMALL, fetchText: () => Promise.reject(new Error('no fetch')) });
    expect([...second.operations]).toEqual([...fresh.operations]);
    expect({ ...second, operations: undefined }).toEqual({ ...first, operations: undefined });
    expect(second.operations.get('listPets')?.summary).toBe('List the pets');
  });

  it('keys the index of a fetched description by its body, so a changed body is parsed again', async () => {
    const clock = { now: 1_000_000 };
    const cache = cacheAt('remote', clock);
    const url = `${server.origin}/api.yaml`;
    served = await readFile(SMALL, 'utf8');
    await load(cache, url);
    await markIndex(cache, 'from the index');
    expect((await load(cache, url)).title).toBe('from the index');
    served = served.replace('title: Cached API', 'title: Changed API');
    clock.now += cache.ttlMs;
    expect((await load(cache, url)).title).toBe('Changed API');
  });

  it('does not index a description that refers to other files', async () => {
    const cache = cacheAt('split');
    const description = await load(cache, join(FIXTURES, 'openapi', 'split', 'main.yaml'));
    expect(description.operations.size).toBeGreaterThan(0);
    expect(await readdir(join(cache.dir, 'parsed')).catch(() => [])).toEqual([]);
  });

  it('treats a damaged index file as a miss', async () => {
    const cache = cacheAt('damaged');
    await load(cache, SMALL);
    const dir = join(cache.dir, 'parsed');
    for (const file of await readdir(dir)) await writeFile(join(dir, file), '{"format":1,"description":');
    expect((await load(cache, SMALL)).operations.size).toBe(2);
  });

  it('writes nothing when it is given neither a cache nor an environment', async () => {
    const before = await readdir(home);
    await createDescriptionLoader(pipeline, SMALL)(SMALL);
    expect(await readdir(home)).toEqual(before);
  });
});
