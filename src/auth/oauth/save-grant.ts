/** Keeping what a token endpoint returned: the access token in the cache, a refresh token with the secrets. */

import { credentialStore } from '../../config/credential-store.js';
import type { ConfigPaths } from '../../config/paths.js';
import { tokenStore, type CachedToken } from '../../config/token-store.js';
import type { TokenGrant } from './token-grant.js';

/** Writes the grant for API `name` (tokens.json, and credentials.json when a refresh token came); returns the cached form. */
export async function saveGrant(paths: ConfigPaths, name: string, grant: TokenGrant, now: number): Promise<CachedToken> {
  const token: CachedToken = { accessToken: grant.accessToken };
  if (grant.expiresIn !== undefined) token.expiresAt = now + grant.expiresIn * 1000;
  if (grant.scope !== undefined) token.scope = grant.scope;
  await tokenStore(paths).update((tokens) => {
    tokens.set(name, token);
  });
  const refreshToken = grant.refreshToken;
  if (refreshToken !== undefined) {
    // The refresh token is the lasting credential: it lives in the config dir, which a cache clear leaves alone.
    await credentialStore(paths).update((credentials) => {
      credentials.set(name, { ...credentials.get(name), refreshToken });
    });
  }
  return token;
}
