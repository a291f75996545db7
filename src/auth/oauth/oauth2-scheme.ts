/** OAuth 2.0 as a scheme: cached access tokens, refreshed before expiry and once after a 401. */

import type { ApiEntry, OAuth2Config } from '../../config/api-entry.js';
import { boundCredential, originOf } from '../../config/credential-binding.js';
import { credentialStore } from '../../config/credential-store.js';
import type { ConfigPaths } from '../../config/paths.js';
import { tokenStore, type CachedToken } from '../../config/token-store.js';
import type { Pipeline } from '../../http/create-pipeline.js';
import { describeAuth } from '../describe-auth.js';
import { AuthError, OAuthError } from '../errors.js';
import { resolveSecret } from '../resolve-secret.js';
import { maskedAuthorization, type Scheme } from '../scheme.js';
import { saveGrant } from './save-grant.js';
import { requestToken, type TokenGrant } from './token-grant.js';

/** A token this close to its expiry is replaced before use, so it cannot expire in flight. */
export const REFRESH_MARGIN_MS = 30_000;

export interface OAuth2Deps {
  paths: ConfigPaths;
  env: Record<string, string | undefined>;
  pipeline: Pipeline;
  now: () => number;
}

/** The scheme for an OAuth 2.0 entry. Tokens come from tokens.json (shared by every run) or the token endpoint. */
export function oauth2Scheme(api: ApiEntry, auth: OAuth2Config, deps: OAuth2Deps): Scheme {
  const tokens = tokenStore(deps.paths);
  let current: CachedToken | undefined;
  let inflight: Promise<CachedToken> | undefined;
  const fresh = (token: CachedToken): boolean => token.expiresAt === undefined || token.expiresAt - REFRESH_MARGIN_MS > deps.now();

  // The cache first (another run may have refreshed already), then the token endpoint.
  const obtain = async (rejected: string | undefined): Promise<CachedToken> => {
    const cached = (await tokens.read()).get(api.name);
    // A token cached for another origin (apis.json edited by hand) is never sent to this one.
    const sameOrigin = cached?.origin === undefined || cached.origin === originOf(api);
    if (cached !== undefined && sameOrigin && fresh(cached) && cached.accessToken !== rejected) return cached;
    const grant = await newGrant(api, auth, deps);
    return saveGrant(deps.paths, api, grant, deps.now());
  };

  const accessToken = async (retryAfter401: boolean): Promise<string> => {
    if (!retryAfter401 && current !== undefined && fresh(current)) return current.accessToken;
    // Concurrent requests share one token request.
    inflight ??= obtain(retryAfter401 ? current?.accessToken : undefined).finally(() => {
      inflight = undefined;
    });
    current = await inflight;
    return current.accessToken;
  };

  return {
    description: describeAuth(auth),
    secretNames: ['authorization'],
    refreshOn401: true,
    async apply(req, ctx) {
      req.headers.authorization = `Bearer ${await accessToken(ctx.retryAfter401)}`;
    },
    placeholder: maskedAuthorization,
  };
}

/** A new token: the refresh token when there is one, else (client credentials only) a new grant. */
async function newGrant(api: ApiEntry, auth: OAuth2Config, deps: OAuth2Deps): Promise<TokenGrant> {
  const refreshToken = boundCredential(await credentialStore(deps.paths).read(), api)?.refreshToken;
  const clientSecret = auth.type === 'oauth2-client-credentials' ? await resolveSecret(api, auth, deps) : undefined;
  const client = clientSecret === undefined ? { clientId: auth.clientId } : { clientId: auth.clientId, clientSecret };
  if (refreshToken !== undefined) {
    try {
      return await requestToken(deps.pipeline, auth.tokenUrl, { grant_type: 'refresh_token', refresh_token: refreshToken }, client);
    } catch (error) {
      // A dead refresh token is no loss when the client can simply ask again.
      if (!(error instanceof OAuthError) || auth.type !== 'oauth2-client-credentials') throw loginExpired(api, error);
    }
  }
  if (auth.type === 'oauth2-client-credentials') {
    const params: Record<string, string> = { grant_type: 'client_credentials' };
    if (auth.scopes.length > 0) params.scope = auth.scopes.join(' ');
    return requestToken(deps.pipeline, auth.tokenUrl, params, client);
  }
  throw loginExpired(api, undefined);
}

function loginExpired(api: ApiEntry, cause: unknown): unknown {
  if (cause !== undefined && !(cause instanceof OAuthError)) return cause;
  const why = cause === undefined ? 'its access token expired and there is no refresh token' : `the refresh token was refused (${cause.message})`;
  return new AuthError('LOGIN_EXPIRED', `the OAuth login of API "${api.name}" has expired: ${why}`, `Log in again: tool auth login ${api.name}`);
}
