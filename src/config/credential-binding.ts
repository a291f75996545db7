/**
 * Credentials are bound to the origin (`scheme://host:port`) of the API they were given for. These
 * checks keep a secret from reaching another origin when the registry changes under a command, and
 * keep a request from going out without credentials, silently, when the files disagree.
 */

import type { ApiEntry } from './api-entry.js';
import type { Registry } from './api-registry.js';
import { credentialStore, type StoredCredential } from './credential-store.js';
import { ConfigError } from './errors.js';
import { urlOrigin } from './validate-input.js';
import type { ConfigPaths } from './paths.js';

/** The origin an API's credentials may be sent to. */
export function originOf(api: Pick<ApiEntry, 'baseUrl'>): string {
  return urlOrigin(api.baseUrl);
}

/**
 * The registry's current entry for `api.name`, read under the lock just before writing its secrets.
 * Throws ConfigError API_CHANGED (exit 2) when another command removed the API or moved it to
 * another origin since this command read `api`: nothing may be stored for it then.
 */
export function requireUnmoved(registry: Registry, api: ApiEntry): ApiEntry {
  const current = registry.get(api.name);
  const again = `Log in again: tool auth login ${api.name}`;
  if (current === undefined) {
    throw new ConfigError('API_CHANGED', `API "${api.name}" was removed by another command while this one was running; no credential was stored`, `Add it again (tool api add ${api.name} <base-url>), then log in: tool auth login ${api.name}`);
  }
  if (originOf(current) !== originOf(api)) {
    throw new ConfigError(
      'API_CHANGED',
      `API "${api.name}" was moved to ${current.baseUrl} by another command while this one was running (it was ${api.baseUrl}); no credential was stored, so none follows it to ${originOf(current)}`,
      again,
    );
  }
  return current;
}

/**
 * The stored credential of `api`, or undefined. Throws ConfigError CREDENTIAL_ORIGIN_MISMATCH when
 * it was stored for another origin (apis.json was edited by hand): it is not sent to the new one.
 */
export function boundCredential(stored: Map<string, StoredCredential>, api: ApiEntry): StoredCredential | undefined {
  const credential = stored.get(api.name);
  if (credential?.origin === undefined || credential.origin === originOf(api)) return credential;
  throw new ConfigError(
    'CREDENTIAL_ORIGIN_MISMATCH',
    `the credential stored for API "${api.name}" was given for ${credential.origin}, but the API now points at ${api.baseUrl}; it is not sent there`,
    `Log in again: tool auth login ${api.name}`,
  );
}

/**
 * Resolves when `api` has an auth scheme or no stored credential. Throws ConfigError
 * CREDENTIAL_WITHOUT_SCHEME when credentials.json holds a credential for an API that apis.json
 * records without auth (an interrupted login): its request would otherwise go out without credentials.
 */
export async function refuseOrphanCredential(paths: ConfigPaths, api: ApiEntry): Promise<void> {
  if (api.auth !== undefined) return;
  if (!(await credentialStore(paths).read()).has(api.name)) return;
  throw new ConfigError(
    'CREDENTIAL_WITHOUT_SCHEME',
    `${paths.credentialsFile} holds a credential for API "${api.name}", but ${paths.apisFile} records no auth scheme for it, so the request would go out without credentials`,
    `The two files disagree (an interrupted login?). Log in again (tool auth login ${api.name}), or forget the credential: tool auth logout ${api.name}`,
  );
}
