/** What `tool auth status` reports for one API: the scheme, where its secret comes from, the cached token. */

import { isOAuth2, secretEnvOf, type ApiEntry } from '../config/api-entry.js';
import type { StoredCredential } from '../config/credential-store.js';
import type { CachedToken } from '../config/token-store.js';
import { describeAuth } from './describe-auth.js';
import { REFRESH_MARGIN_MS } from './oauth/oauth2-scheme.js';

export interface AuthStatus {
  name: string;
  /** The scheme, or "none" when the API has no auth configured. */
  type: string;
  description: string;
  /** Where the scheme's secret comes from; `present` says whether it is there right now. */
  secret: { source: 'credentials' | 'env' | 'none'; env?: string; present: boolean };
  /** OAuth 2.0 only: a refresh token is stored. */
  refreshToken?: boolean;
  /** OAuth 2.0 only: the cached access token's expiry (ISO 8601) and whether it is due for refresh. */
  accessToken?: { expiresAt: string | null; expired: boolean };
}

/** The status of one API from what is stored; pure, and never includes a secret value. */
export function authStatus(
  api: ApiEntry,
  credential: StoredCredential | undefined,
  token: CachedToken | undefined,
  env: Record<string, string | undefined>,
  now: number,
): AuthStatus {
  const auth = api.auth;
  if (auth === undefined) return { name: api.name, type: 'none', description: 'no auth configured', secret: { source: 'none', present: false } };
  const status: AuthStatus = { name: api.name, type: auth.type, description: describeAuth(auth), secret: { source: 'none', present: false } };
  const variable = secretEnvOf(auth);
  if (variable !== undefined) status.secret = { source: 'env', env: variable, present: (env[variable] ?? '') !== '' };
  else if (credential?.secret !== undefined) status.secret = { source: 'credentials', present: true };
  if (isOAuth2(auth)) {
    status.refreshToken = credential?.refreshToken !== undefined;
    if (token !== undefined) {
      const expiresAt = token.expiresAt === undefined ? null : new Date(token.expiresAt).toISOString();
      status.accessToken = { expiresAt, expired: token.expiresAt !== undefined && token.expiresAt - REFRESH_MARGIN_MS <= now };
    }
  }
  return status;
}

/** Whether requests can be authenticated without logging in again (as far as the files tell). */
export function isUsable(status: AuthStatus): boolean {
  if (status.type === 'none') return false;
  if (status.type === 'oauth2-client-credentials') return status.secret.present || status.refreshToken === true;
  if (status.type.startsWith('oauth2-')) return status.refreshToken === true || (status.accessToken !== undefined && !status.accessToken.expired);
  return status.secret.present;
}
