/** The secrets file (credentials.json, mode 0600): one entry per API. */

import { keyedStore, type KeyedStore } from './keyed-store.js';
import type { ConfigPaths } from './paths.js';
import { objectAt, optionalString, type Path } from './shape.js';

export interface StoredCredential {
  /** The token, password, API key or client secret of the API's scheme. */
  secret?: string;
  /** An OAuth 2.0 refresh token (authorization code, device code, and client credentials when issued). */
  refreshToken?: string;
  /** The `scheme://host:port` the credential was given for (absent in files written before tool recorded it). */
  origin?: string;
}

/** The credentials file of these paths. */
export function credentialStore(paths: ConfigPaths): KeyedStore<StoredCredential> {
  return keyedStore({ path: paths.credentialsFile, section: 'credentials', configDir: paths.configDir, secret: true, parseEntry, toJson: (entry) => entry });
}

function parseEntry(value: unknown, path: Path): StoredCredential {
  const raw = objectAt(value, path);
  const entry: StoredCredential = {};
  const secret = optionalString(raw.secret, [...path, 'secret']);
  const refreshToken = optionalString(raw.refreshToken, [...path, 'refreshToken']);
  if (secret !== undefined) entry.secret = secret;
  if (refreshToken !== undefined) entry.refreshToken = refreshToken;
  const origin = optionalString(raw.origin, [...path, 'origin']);
  if (origin !== undefined) entry.origin = origin;
  return entry;
}
