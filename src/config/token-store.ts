/** The OAuth token cache (tokens.json under the cache dir, mode 0600): access tokens with their expiry. */

import { keyedStore, type KeyedStore } from './keyed-store.js';
import type { ConfigPaths } from './paths.js';
import { checked, objectAt, optionalString, stringAt, type Path } from './shape.js';

export interface CachedToken {
  accessToken: string;
  /** Milliseconds since the epoch; undefined when the server gave no `expires_in` (used until a 401). */
  expiresAt?: number;
  scope?: string;
  /** The `scheme://host:port` of the API the token was obtained for (absent in older files). */
  origin?: string;
}

/** The token cache of these paths. */
export function tokenStore(paths: ConfigPaths): KeyedStore<CachedToken> {
  return keyedStore({ path: paths.tokensFile, section: 'tokens', configDir: paths.configDir, secret: true, parseEntry, toJson });
}

function parseEntry(value: unknown, path: Path): CachedToken {
  const raw = objectAt(value, path);
  const token: CachedToken = { accessToken: stringAt(raw.accessToken, [...path, 'accessToken']) };
  const expiresAt = optionalString(raw.expiresAt, [...path, 'expiresAt']);
  if (expiresAt !== undefined) token.expiresAt = checked([...path, 'expiresAt'], () => parseInstant(expiresAt));
  const scope = optionalString(raw.scope, [...path, 'scope']);
  if (scope !== undefined) token.scope = scope;
  const origin = optionalString(raw.origin, [...path, 'origin']);
  if (origin !== undefined) token.origin = origin;
  return token;
}

// Stored as an ISO 8601 instant so a person reading the file can tell when the token expires.
function toJson(token: CachedToken): Record<string, unknown> {
  const out: Record<string, unknown> = { accessToken: token.accessToken };
  if (token.expiresAt !== undefined) out.expiresAt = new Date(token.expiresAt).toISOString();
  if (token.scope !== undefined) out.scope = token.scope;
  if (token.origin !== undefined) out.origin = token.origin;
  return out;
}

function parseInstant(text: string): number {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new Error('must be an ISO 8601 date-time such as 2030-01-01T00:00:00Z');
  return ms;
}
