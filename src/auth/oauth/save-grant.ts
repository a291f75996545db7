/** Keeping what a token endpoint returned: the access token in the cache, a refresh token with the secrets. */

import type { ApiEntry } from '../../config/api-entry.js';
import { apiRegistry } from '../../config/api-registry.js';
import { withConfigLock, type ConfigLock } from '../../config/config-lock.js';
import { originOf, requireUnmoved } from '../../config/credential-binding.js';
import { credentialStore } from '../../config/credential-store.js';
import type { ConfigPaths } from '../../config/paths.js';
import { tokenStore, type CachedToken } from '../../config/token-store.js';
import type { TokenGrant } from './token-grant.js';

/** The cache entry for a grant obtained at `now` for `api` (bound to its origin). */
export function cachedTokenOf(api: ApiEntry, grant: TokenGrant, now: number): CachedToken {
  const token: CachedToken = { accessToken: grant.accessToken, origin: originOf(api) };
  if (grant.expiresIn !== undefined) token.expiresAt = now + grant.expiresIn * 1000;
  if (grant.scope !== undefined) token.scope = grant.scope;
  return token;
}

/**
 * Writes a refreshed grant for `api` (tokens.json, and credentials.json when a refresh token came)
 * under the configuration lock; returns the cached form. Throws ConfigError API_CHANGED, storing
 * nothing, when another command removed the API or moved it to another origin meanwhile.
 */
export async function saveGrant(paths: ConfigPaths, api: ApiEntry, grant: TokenGrant, now: number): Promise<CachedToken> {
  const token = cachedTokenOf(api, grant, now);
  await withConfigLock(paths, async (lock) => {
    requireUnmoved(await apiRegistry(paths).read(), api);
    await storeGrant(lock, paths, api, token, grant.refreshToken);
  }, { writes: grant.refreshToken === undefined ? [paths.tokensFile] : [paths.tokensFile, paths.credentialsFile] });
  return token;
}

/** Writes the token, and the refresh token next to the API's other secrets; the caller holds the lock and has checked the origin. */
export async function storeGrant(lock: ConfigLock, paths: ConfigPaths, api: ApiEntry, token: CachedToken, refreshToken: string | undefined): Promise<void> {
  await tokenStore(paths).updateLocked(lock, (tokens) => {
    tokens.set(api.name, token);
  });
  if (refreshToken !== undefined) {
    // The refresh token is the lasting credential: it lives in the config dir, which a cache clear leaves alone.
    await credentialStore(paths).updateLocked(lock, (credentials) => {
      credentials.set(api.name, { ...credentials.get(api.name), refreshToken, origin: originOf(api) });
    });
  }
}
