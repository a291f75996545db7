import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authHookFor } from '../../../src/auth/auth-hook-for.js';
import { AuthError } from '../../../src/auth/errors.js';
import type { ApiEntry, AuthConfig } from '../../../src/config/api-entry.js';
import { apiRegistry } from '../../../src/config/api-registry.js';
import { credentialStore } from '../../../src/config/credential-store.js';
import { configPaths, type ConfigPaths } from '../../../src/config/paths.js';
import { tokenStore } from '../../../src/config/token-store.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import type { AuthHook } from '../../../src/http/types.js';
import type { TestServer } from '../http/test-server.js';
import { startOAuthServer, startProtectedApi, type OAuthServer, type OAuthServerOptions } from './oauth-server.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

describe('OAuth 2.0 hooks', () => {
  let dir: string;
  let paths: ConfigPaths;
  let pipeline: Pipeline;
  let oauth: OAuthServer;
  let api: TestServer;
  let clock: number;
  const now = () => clock;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-oauth-'));
    paths = configPaths({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') });
    pipeline = createPipeline({ retry: 0 });
    clock = Date.parse('2030-01-01T00:00:00Z');
  });
  afterEach(async () => {
    pipeline.close();
    await oauth?.close();
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const start = async (options: OAuthServerOptions = {}): Promise<void> => {
    oauth = await startOAuthServer(options);
    api = await startProtectedApi((hit) => oauth.valid.has((hit.headers.authorization ?? '').replace(/^Bearer /, '')));
  };
  const clientCredentials = (extra: Partial<AuthConfig> = {}): ApiEntry => ({
    name: 'billing',
    baseUrl: api.origin,
    headers: {},
    auth: { type: 'oauth2-client-credentials', tokenUrl: oauth.tokenUrl, clientId: 'tool-client', scopes: ['read', 'write'], ...extra } as AuthConfig,
  });
  const storeSecret = (secret: string) => credentialStore(paths).update((entries) => void entries.set('billing', { secret }));
  // Tokens are stored only for an API the registry still has at the same origin, so the entry is registered first.
  const hook = async (entry: ApiEntry, env: Record<string, string> = {}): Promise<AuthHook> => {
    await apiRegistry(paths).update((apis) => void apis.set(entry.name, entry));
    return authHookFor(entry, { paths, env, pipeline, now })!;
  };
  const get = (auth: AuthHook, path = '/invoices') => pipeline.send({ method: 'GET', url: `${api.origin}${path}`, headers: {}, auth });

  it('gets a client-credentials token with HTTP Basic client auth and a form body', async () => {
    await start();
    await storeSecret('client-s3cret');
    const auth = await hook(clientCredentials());
    expect((await get(auth)).status).toBe(200);
    const request = oauth.tokenHits[0]!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('tool-client:client-s3cret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(request.body.toString()))).toEqual({ grant_type: 'client_credentials', scope: 'read write' });
    expect(api.hits[0]?.headers.authorization).toBe('Bearer at-1');
    expect(auth.refreshOn401).toBe(true);
    expect(auth.describe()).toBe('oauth2 client credentials');
  });

  it('reuses the cached token across hook instances (one token request in all)', async () => {
    await start();
    await storeSecret('client-s3cret');
    await get(await hook(clientCredentials()));
    await get(await hook(clientCredentials()));
    await get(await hook(clientCredentials()), '/again');
    expect(oauth.grants).toEqual(['client_credentials']);
    expect(api.hits.map((h) => h.headers.authorization)).toEqual(['Bearer at-1', 'Bearer at-1', 'Bearer at-1']);
    const cached = JSON.parse(await readFile(paths.tokensFile, 'utf8'));
    expect(cached).toEqual({ version: 1, tokens: { billing: { accessToken: 'at-1', expiresAt: '2030-01-01T01:00:00.000Z', origin: api.origin } } });
    expect((await stat(paths.tokensFile)).mode & 0o777).toBe(0o600);
  });

  it('shares one token request between concurrent requests', async () => {
    await start();
    await storeSecret('client-s3cret');
    const auth = await hook(clientCredentials());
    await Promise.all([get(auth, '/a'), get(auth, '/b'), get(auth, '/c')]);
    expect(oauth.grants).toEqual(['client_credentials']);
  });

  it('asks for a new token 30 s before expiry, not earlier', async () => {
    await start();
    await storeSecret('client-s3cret');
    const auth = await hook(clientCredentials());
    await get(auth);
    clock += 3600_000 - 31_000;
    await get(auth);
    expect(oauth.grants).toEqual(['client_credentials']);
    clock += 2_000;
    await get(auth);
    expect(oauth.grants).toEqual(['client_credentials', 'client_credentials']);
    expect(api.hits.at(-1)?.headers.authorization).toBe('Bearer at-2');
  });

  it('uses the refresh token when the server issued one, and keeps the new one', async () => {
    await start({ refreshWithClientCredentials: true });
    await storeSecret('client-s3cret');
    await get(await hook(clientCredentials()));
    expect((await credentialStore(paths).read()).get('billing')).toEqual({ secret: 'client-s3cret', refreshToken: 'rt-1', origin: api.origin });
    clock += 3600_000;
    await get(await hook(clientCredentials()));
    expect(oauth.grants).toEqual(['client_credentials', 'refresh_token']);
    expect((await credentialStore(paths).read()).get('billing')?.refreshToken).toBe('rt-2');
  });

  it('falls back to a new client-credentials grant when the refresh token is refused', async () => {
    await start({ refreshWithClientCredentials: true });
    await credentialStore(paths).update((entries) => void entries.set('billing', { secret: 'client-s3cret', refreshToken: 'revoked' }));
    expect((await get(await hook(clientCredentials()))).status).toBe(200);
    expect(oauth.grants).toEqual(['refresh_token', 'client_credentials']);
  });

  it('refreshes once after a 401 and resends the request once', async () => {
    await start();
    await storeSecret('client-s3cret');
    const auth = await hook(clientCredentials());
    await get(auth);
    oauth.valid.delete('at-1'); // the server revokes the token before it expires
    const response = await get(auth, '/after-revoke');
    expect(response.status).toBe(200);
    expect(oauth.grants).toEqual(['client_credentials', 'client_credentials']);
    expect(api.hits.slice(1).map((h) => [h.url, h.headers.authorization])).toEqual([
      ['/after-revoke', 'Bearer at-1'],
      ['/after-revoke', 'Bearer at-2'],
    ]);
  });

  it('gives up after one refresh when the API keeps answering 401', async () => {
    await start();
    await storeSecret('client-s3cret');
    const always401 = await startProtectedApi(() => false);
    const entry = { ...clientCredentials(), baseUrl: always401.origin };
    const response = await pipeline.send({ method: 'GET', url: `${always401.origin}/x`, headers: {}, auth: await hook(entry) });
    await always401.close();
    expect(response.status).toBe(401);
    expect(always401.hits).toHaveLength(2);
    expect(oauth.grants).toEqual(['client_credentials', 'client_credentials']);
  });

  it('reads the client secret from an environment variable', async () => {
    await start();
    const auth = await hook(clientCredentials({ secretEnv: 'BILLING_SECRET' } as Partial<AuthConfig>), { BILLING_SECRET: 'client-s3cret' });
    expect((await get(auth)).status).toBe(200);
    expect(await credentialStore(paths).read()).toEqual(new Map());
  });

  it('reports a refused client secret with the server error, not the secret', async () => {
    await start();
    await storeSecret('wrong-secret');
    const error = (await get(await hook(clientCredentials())).catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe(`${oauth.tokenUrl} answered invalid_client (HTTP 401)`);
    expect(error.message).not.toContain('wrong-secret');
    expect(api.hits).toHaveLength(0);
  });

  it('refreshes a user login (device or authorization code) with its stored refresh token', async () => {
    await start();
    oauth.refreshTokens.add('rt-login');
    await credentialStore(paths).update((entries) => void entries.set('gh', { refreshToken: 'rt-login' }));
    const entry: ApiEntry = {
      name: 'gh',
      baseUrl: api.origin,
      headers: {},
      auth: { type: 'oauth2-device-code', deviceUrl: oauth.deviceUrl, tokenUrl: oauth.tokenUrl, clientId: 'tool-client', scopes: [] },
    };
    expect((await get(await hook(entry))).status).toBe(200);
    expect(oauth.grants).toEqual(['refresh_token']);
    const body = new URLSearchParams(oauth.tokenHits[0]!.body.toString());
    expect(body.get('client_id')).toBe('tool-client');
    expect(oauth.tokenHits[0]!.headers.authorization).toBeUndefined();
    expect((await credentialStore(paths).read()).get('gh')).toEqual({ refreshToken: 'rt-1', origin: api.origin });
  });

  it('asks to log in again when a user login expired without a refresh token', async () => {
    await start();
    await tokenStore(paths).update((entries) => void entries.set('gh', { accessToken: 'old', expiresAt: clock - 1 }));
    const entry: ApiEntry = {
      name: 'gh',
      baseUrl: api.origin,
      headers: {},
      auth: { type: 'oauth2-authorization-code', authorizeUrl: oauth.authorizeUrl, tokenUrl: oauth.tokenUrl, clientId: 'tool-client', scopes: [] },
    };
    const error = (await get(await hook(entry)).catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe('LOGIN_EXPIRED');
    expect(exitCodeFor(error.kind)).toBe(2);
    expect(error.hint).toBe('Log in again: tool auth login gh');
  });
});
