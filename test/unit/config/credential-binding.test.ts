import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authHookFor } from '../../../src/auth/auth-hook-for.js';
import type { ApiEntry } from '../../../src/config/api-entry.js';
import { loadApiLookup } from '../../../src/plan/api-lookup.js';
import { apiRegistry } from '../../../src/config/api-registry.js';
import { requireUnmoved } from '../../../src/config/credential-binding.js';
import { credentialStore } from '../../../src/config/credential-store.js';
import { ConfigError } from '../../../src/config/errors.js';
import { configPaths, type ConfigPaths } from '../../../src/config/paths.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { sendJson, startServer, type TestServer } from '../http/test-server.js';

describe('credentials bound to an origin', () => {
  let dir: string;
  let env: Record<string, string>;
  let paths: ConfigPaths;
  let pipeline: Pipeline;
  let api: TestServer;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-binding-'));
    env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
    paths = configPaths(env);
    pipeline = createPipeline({ retry: 0 });
    api = await startServer((_hit, res) => sendJson(res, 200, { ok: true }));
  });
  afterEach(async () => {
    pipeline.close();
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });
  const pets = (auth?: ApiEntry['auth']): ApiEntry => ({ name: 'pets', baseUrl: `${api.origin}/v1`, headers: {}, ...(auth ? { auth } : {}) });
  const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as ConfigError);

  it('does not send a secret stored for another origin (apis.json edited by hand)', async () => {
    await credentialStore(paths).update((entries) => void entries.set('pets', { secret: 'tok-123', origin: 'https://old.example.com' }));
    const auth = authHookFor(pets({ type: 'bearer' }), { paths, env, pipeline })!;
    const error = await failureOf(pipeline.send({ method: 'GET', url: `${api.origin}/v1/pets`, headers: {}, auth }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.code).toBe('CREDENTIAL_ORIGIN_MISMATCH');
    expect(error?.message).toContain('https://old.example.com');
    expect(api.hits).toHaveLength(0);
  });

  it('stops a request to an API without auth scheme when credentials.json holds a credential for it', async () => {
    await apiRegistry(paths).update((apis) => void apis.set('pets', pets()));
    await credentialStore(paths).update((entries) => void entries.set('pets', { secret: 'tok-123', origin: api.origin }));
    const lookup = await loadApiLookup({ env, pipeline });
    const auth = lookup.get('pets')?.auth;
    const error = await failureOf(pipeline.send({ method: 'GET', url: `${api.origin}/v1/pets`, headers: {}, ...(auth ? { auth } : {}) }));
    expect(error?.code).toBe('CREDENTIAL_WITHOUT_SCHEME');
    expect(error?.hint).toContain('tool auth login pets');
    expect(api.hits).toHaveLength(0);
  });

  it('refuses to store for an API another command moved to another origin or removed', () => {
    const moved = new Map([['pets', { ...pets(), baseUrl: 'https://elsewhere.example.com/v1' }]]);
    expect(() => requireUnmoved(moved, pets())).toThrow(/moved to https:\/\/elsewhere\.example\.com\/v1/);
    expect(() => requireUnmoved(new Map(), pets())).toThrow(/removed/);
    expect(requireUnmoved(new Map([['pets', { ...pets(), baseUrl: `${api.origin}/v2` }]]), pets()).baseUrl).toBe(`${api.origin}/v2`);
  });
});
