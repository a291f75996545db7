/** Where an API's secret comes from at request time: an environment variable or credentials.json. */

import { secretEnvOf, type ApiEntry, type AuthConfig } from '../config/api-entry.js';
import { boundCredential } from '../config/credential-binding.js';
import { credentialStore } from '../config/credential-store.js';
import type { ConfigPaths } from '../config/paths.js';
import { AuthError } from './errors.js';

export interface SecretDeps {
  paths: ConfigPaths;
  env: Record<string, string | undefined>;
}

/**
 * The secret of `api` (token, password, API key or client secret). Throws AuthError (exit 2) when the
 * referenced environment variable is unset or nothing is stored, and ConfigError for a broken file.
 */
export async function resolveSecret(api: ApiEntry, auth: AuthConfig, deps: SecretDeps): Promise<string> {
  const variable = secretEnvOf(auth);
  if (variable !== undefined) {
    const value = deps.env[variable];
    if (value !== undefined && value !== '') return value;
    throw new AuthError(
      'SECRET_ENV_MISSING',
      `API "${api.name}" takes its ${secretWord(auth)} from the environment variable ${variable}, which is not set`,
      `Set ${variable}, or store the secret instead: tool auth login ${api.name} --type ${auth.type} ...`,
    );
  }
  const stored = boundCredential(await credentialStore(deps.paths).read(), api)?.secret;
  if (stored !== undefined && stored !== '') return stored;
  throw new AuthError('NOT_LOGGED_IN', `no ${secretWord(auth)} is stored for API "${api.name}"`, `Log in: tool auth login ${api.name}`);
}

/** What the scheme calls its secret, for messages and prompts. */
export function secretWord(auth: AuthConfig): string {
  switch (auth.type) {
    case 'bearer':
      return 'token';
    case 'basic':
      return 'password';
    case 'api-key':
      return 'API key';
    case 'oauth2-client-credentials':
      return 'client secret';
    default:
      return 'refresh token';
  }
}

/** Memoises an async lookup so one hook reads the credentials file at most once per run. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => {
    if (result === undefined) {
      result = load();
      // A failure is not cached: the user may fix the file or the environment between two calls.
      result.catch(() => {
        result = undefined;
      });
    }
    return result;
  };
}
