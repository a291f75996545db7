/** Carrying out a planned login: run the OAuth flow if any, then store the scheme, secret and tokens. */

import type { Writable } from 'node:stream';
import { secretEnvOf, type ApiEntry, type AuthConfig } from '../../config/api-entry.js';
import { apiRegistry, requireApi } from '../../config/api-registry.js';
import { withConfigLock } from '../../config/config-lock.js';
import { originOf, requireUnmoved } from '../../config/credential-binding.js';
import { credentialStore } from '../../config/credential-store.js';
import { configFiles, type ConfigPaths } from '../../config/paths.js';
import { tokenStore } from '../../config/token-store.js';
import type { Pipeline } from '../../http/create-pipeline.js';
import { describeAuth } from '../describe-auth.js';
import { authorizationCodeLogin } from '../oauth/authorization-code-flow.js';
import { deviceCodeLogin } from '../oauth/device-code-flow.js';
import { cachedTokenOf, storeGrant } from '../oauth/save-grant.js';
import { requestToken, type TokenGrant } from '../oauth/token-grant.js';
import type { LoginPlan } from './plan-login.js';

export interface LoginDeps {
  paths: ConfigPaths;
  env: Record<string, string | undefined>;
  stderr: Writable;
  /** Created only for schemes that talk to a token endpoint. */
  pipeline: () => Pipeline;
  signal?: AbortSignal;
  /** Opens the authorization URL (authorization code only); absent: print it only. */
  openBrowser?: (url: string) => boolean;
  now?: () => number;
  /** Device-code polling sleep (tests make it instant). */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
  /** Authorization-code wait for the browser (tests shorten it). */
  authorizationTimeoutMs?: number;
}

/**
 * Gets tokens first (nothing is written if the server refuses), then replaces the API's secret,
 * drops its cached tokens and records the scheme in the registry. Returns the lines to print on
 * stderr. Throws AuthError/OAuthError/TransportError from the flows and ConfigError from the files.
 */
export async function performLogin(api: ApiEntry, plan: LoginPlan, deps: LoginDeps): Promise<string[]> {
  const now = deps.now ?? Date.now;
  const lines: string[] = [];
  const grant = await obtainGrant(plan, deps, lines);
  const token = grant === undefined ? undefined : cachedTokenOf(api, grant, now());
  // The login may have taken minutes: under the lock, the registry is read again and nothing is
  // stored if the API was removed or moved to another origin meanwhile.
  await withConfigLock(deps.paths, async (lock) => {
    const registry = apiRegistry(deps.paths);
    requireUnmoved(await registry.read(), api);
    await credentialStore(deps.paths).updateLocked(lock, (credentials) => {
      // A new login replaces everything stored before, an old refresh token included.
      if (plan.secret !== undefined) credentials.set(api.name, { secret: plan.secret, origin: originOf(api) });
      else credentials.delete(api.name);
    });
    await tokenStore(deps.paths).updateLocked(lock, (tokens) => {
      tokens.delete(api.name);
    });
    if (grant !== undefined && token !== undefined) await storeGrant(lock, deps.paths, api, token, grant.refreshToken);
    await registry.updateLocked(lock, (apis) => {
      const entry = requireApi(apis, api.name);
      apis.set(api.name, { ...entry, auth: plan.auth });
    });
  }, { writes: configFiles(deps.paths) });
  lines.unshift(`Logged in to ${api.name} (${describeAuth(plan.auth)}).`);
  lines.push(whereTheSecretIs(plan, deps));
  if (token !== undefined) lines.push(token.expiresAt === undefined ? 'Access token cached (no expiry given).' : `Access token cached until ${new Date(token.expiresAt).toISOString()}; it is refreshed automatically.`);
  return lines;
}

async function obtainGrant(plan: LoginPlan, deps: LoginDeps, notes: string[]): Promise<TokenGrant | undefined> {
  const auth = plan.auth;
  const signal = deps.signal;
  switch (auth.type) {
    case 'oauth2-client-credentials': {
      const secret = plan.secret ?? envSecret(auth, deps.env);
      if (secret === undefined) {
        notes.push(`Not verified: ${auth.secretEnv} is not set now; a token is requested when a command first needs one.`);
        return undefined;
      }
      const params: Record<string, string> = { grant_type: 'client_credentials' };
      if (auth.scopes.length > 0) params.scope = auth.scopes.join(' ');
      return requestToken(deps.pipeline(), auth.tokenUrl, params, { clientId: auth.clientId, clientSecret: secret }, signal);
    }
    case 'oauth2-authorization-code':
      return authorizationCodeLogin({
        auth,
        pipeline: deps.pipeline(),
        stderr: deps.stderr,
        ...(deps.openBrowser ? { openBrowser: deps.openBrowser } : {}),
        ...(deps.authorizationTimeoutMs ? { timeoutMs: deps.authorizationTimeoutMs } : {}),
        ...(signal ? { signal } : {}),
      });
    case 'oauth2-device-code':
      return deviceCodeLogin({ auth, pipeline: deps.pipeline(), stderr: deps.stderr, ...(signal ? { signal } : {}), ...(deps.sleep ? { sleep: deps.sleep } : {}), ...(deps.now ? { now: deps.now } : {}) });
    default: {
      const variable = secretEnvOf(auth);
      if (variable !== undefined && envSecret(auth, deps.env) === undefined) notes.push(`Note: ${variable} is not set now; requests to this API fail until it is.`);
      return undefined;
    }
  }
}

function whereTheSecretIs(plan: LoginPlan, deps: LoginDeps): string {
  const variable = secretEnvOf(plan.auth);
  if (variable !== undefined) return `The secret is read from $${variable} at each run; only the variable's name is stored.`;
  if (plan.secret !== undefined) return `The secret is stored in ${deps.paths.credentialsFile} (mode 0600).`;
  return `The refresh token (if the server gave one) is stored in ${deps.paths.credentialsFile} (mode 0600).`;
}

function envSecret(auth: AuthConfig, env: Record<string, string | undefined>): string | undefined {
  const variable = secretEnvOf(auth);
  const value = variable === undefined ? undefined : env[variable];
  return value === undefined || value === '' ? undefined : value;
}
