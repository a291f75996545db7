import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authHookFor } from '../../../src/auth/auth-hook-for.js';
import { AuthError } from '../../../src/auth/errors.js';
import type { ApiEntry } from '../../../src/config/api-entry.js';
import { credentialStore } from '../../../src/config/credential-store.js';
import { configPaths, type ConfigPaths } from '../../../src/config/paths.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { formatDryRun } from '../../../src/http/format-dry-run.js';
import { sendJson, startServer, type TestServer } from '../http/test-server.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

describe('bearer, basic and api-key hooks', () => {
  let dir: string;
  let paths: ConfigPaths;
  let pipeline: Pipeline;
  let api: TestServer;
  let other: TestServer;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-auth-'));
    paths = configPaths({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') });
    pipeline = createPipeline({ retry: 0 });
    api = await startServer((hit, res) => sendJson(res, 200, { ok: true, url: hit.url }));
    other = await startServer((_hit, res) => sendJson(res, 200, { ok: true }));
  });
  afterEach(async () => {
    pipeline.close();
    await api.close();
    await other.close();
    await rm(dir, { recursive: true, force: true });
  });
  const entry = (auth: ApiEntry['auth'], headers: Record<string, string> = {}): ApiEntry => ({ name: 'pets', baseUrl: `${api.origin}/v1`, headers, ...(auth ? { auth } : {}) });
  const storeSecret = (secret: string) => credentialStore(paths).update((entries) => void entries.set('pets', { secret }));
  const hookFor = (apiEntry: ApiEntry, env: Record<string, string> = {}) => authHookFor(apiEntry, { paths, env, pipeline })!;

  it('sends a stored bearer token in Authorization', async () => {
    await storeSecret('tok-123');
    const auth = hookFor(entry({ type: 'bearer' }));
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/pets`, headers: {}, auth });
    expect(api.hits[0]?.headers.authorization).toBe('Bearer tok-123');
    expect(auth.origin).toBe(api.origin);
    expect(auth.describe()).toBe('bearer token');
  });

  it('sends basic credentials as base64(user:password)', async () => {
    await storeSecret('pa:ss wörd');
    const auth = hookFor(entry({ type: 'basic', username: 'alice' }));
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/me`, headers: {}, auth });
    expect(api.hits[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alice:pa:ss wörd').toString('base64')}`);
    expect(auth.describe()).toBe('basic (user alice)');
  });

  it('sends an API key in a header, and masks it in dry-run output', async () => {
    await storeSecret('key-abc');
    const auth = hookFor(entry({ type: 'api-key', keyName: 'X-Weather-Key', in: 'header' }));
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/today`, headers: {}, auth });
    expect(api.hits[0]?.headers['x-weather-key']).toBe('key-abc');
    expect(auth.secretNames()).toEqual(['x-weather-key']);
    expect(formatDryRun('s1', { method: 'GET', url: `${api.origin}/v1/today`, headers: { 'X-Weather-Key': 'key-abc' }, auth })).not.toContain('key-abc');
  });

  it('sends an API key in the query without re-encoding the other parameters', async () => {
    await storeSecret('k/1 2');
    const auth = hookFor(entry({ type: 'api-key', keyName: 'appid', in: 'query' }));
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/find?q=a%20b&appid=old`, headers: {}, auth });
    expect(api.hits[0]?.url).toBe('/v1/find?q=a%20b&appid=k%2F1%202');
  });

  it('sends an API key as a cookie next to existing cookies', async () => {
    await storeSecret('c00kie');
    const auth = hookFor(entry({ type: 'api-key', keyName: 'session', in: 'cookie' }));
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/x`, headers: { Cookie: 'lang=en' }, auth });
    expect(api.hits[0]?.headers.cookie).toBe('lang=en; session=c00kie');
  });

  it('reads the secret from the named environment variable at request time', async () => {
    const auth = hookFor(entry({ type: 'bearer', secretEnv: 'PETS_TOKEN' }), { PETS_TOKEN: 'from-env' });
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/pets`, headers: {}, auth });
    expect(api.hits[0]?.headers.authorization).toBe('Bearer from-env');
  });

  it('fails before sending when the environment variable is not set', async () => {
    const auth = hookFor(entry({ type: 'bearer', secretEnv: 'PETS_TOKEN' }));
    const error = await pipeline.send({ method: 'GET', url: `${api.origin}/v1/pets`, headers: {}, auth }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('SECRET_ENV_MISSING');
    expect((error as AuthError).message).toContain('PETS_TOKEN, which is not set');
    expect(api.hits).toHaveLength(0);
  });

  it('fails with the login command when no secret is stored', async () => {
    const auth = hookFor(entry({ type: 'basic', username: 'alice' }));
    const error = (await pipeline.send({ method: 'GET', url: `${api.origin}/v1/pets`, headers: {}, auth }).catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe('NOT_LOGGED_IN');
    expect(exitCodeFor(error.kind)).toBe(2);
    expect(error.hint).toBe('Log in: tool auth login pets');
  });

  it('adds registry headers, but a header the request sets itself wins', async () => {
    const auth = hookFor(entry(undefined, { 'X-Tenant': 'acme', 'Accept-Language': 'en' }));
    await pipeline.send({ method: 'GET', url: `${api.origin}/v1/a`, headers: { 'accept-language': 'fr' }, auth });
    expect(api.hits[0]?.headers['x-tenant']).toBe('acme');
    expect(api.hits[0]?.headers['accept-language']).toBe('fr');
    expect(auth.describe()).toBe('none (registry headers only)');
  });

  it('sends neither credentials nor registry headers to another origin', async () => {
    await storeSecret('tok-123');
    const auth = hookFor(entry({ type: 'bearer' }, { 'X-Tenant': 'acme' }));
    await pipeline.send({ method: 'GET', url: `${other.origin}/v1/pets`, headers: {}, auth });
    expect(other.hits[0]?.headers.authorization).toBeUndefined();
    expect(other.hits[0]?.headers['x-tenant']).toBeUndefined();
  });

  it('returns no hook for an API with neither auth nor headers', () => {
    expect(authHookFor(entry(undefined), { paths, env: {}, pipeline })).toBeUndefined();
  });
});
