import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadApiLookup } from '../../../src/plan/api-lookup.js';
import { apiRegistry } from '../../../src/config/api-registry.js';
import { ConfigError } from '../../../src/config/errors.js';
import { configPaths } from '../../../src/config/paths.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';

describe('loadApiLookup', () => {
  let dir: string;
  let env: Record<string, string>;
  let pipeline: Pipeline;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-lookup-'));
    env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
    pipeline = createPipeline();
  });
  afterEach(async () => {
    pipeline.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is empty when there is no registry file', async () => {
    const lookup = await loadApiLookup({ env, pipeline });
    expect(lookup.get('petstore')).toBeUndefined();
  });

  it('is empty when neither HOME nor XDG_CONFIG_HOME is set', async () => {
    expect((await loadApiLookup({ env: {}, pipeline })).get('petstore')).toBeUndefined();
  });

  it('gives each registered API its base URL and auth hook', async () => {
    await apiRegistry(configPaths(env)).update((apis) => {
      apis.set('petstore', { name: 'petstore', baseUrl: 'https://pets.example.com:8443/v3', headers: {}, auth: { type: 'api-key', keyName: 'api_key', in: 'header' } });
      apis.set('open', { name: 'open', baseUrl: 'http://127.0.0.1:9000', headers: {} });
    });
    const lookup = await loadApiLookup({ env, pipeline });
    const pets = lookup.get('petstore');
    expect(pets?.name).toBe('petstore');
    expect(pets?.baseUrl).toBe('https://pets.example.com:8443/v3');
    expect(pets?.auth?.origin).toBe('https://pets.example.com:8443');
    expect(pets?.auth?.describe()).toBe('api key in header api_key');
    expect(pets?.auth?.secretNames()).toEqual(['api_key']);
    // An API without auth sends no credential; its hook only checks that none is stored either.
    const open = lookup.get('open');
    expect([open?.baseUrl, open?.auth?.describe(), open?.auth?.secretNames()]).toEqual(['http://127.0.0.1:9000', 'none', []]);
  });

  it('throws a configuration error for a broken registry', async () => {
    await mkdir(join(dir, 'config', 'tool'), { recursive: true });
    await writeFile(join(dir, 'config', 'tool', 'apis.json'), '{ "version": 1, "apis": [ }');
    await expect(loadApiLookup({ env, pipeline })).rejects.toBeInstanceOf(ConfigError);
  });
});
