/** The registry as the workflow binder sees it: name -> base URL and auth hook. */

import { urlOrigin } from '../config/validate-input.js';
import { authHookFor } from '../auth/auth-hook-for.js';
import { once } from '../auth/resolve-secret.js';
import type { ApiEntry } from '../config/api-entry.js';
import { apiRegistry } from '../config/api-registry.js';
import { refuseOrphanCredential } from '../config/credential-binding.js';
import { ConfigError } from '../config/errors.js';
import { configPaths, type ConfigPaths } from '../config/paths.js';
import type { Pipeline } from '../http/create-pipeline.js';
import type { AuthHook } from '../http/types.js';
import type { ApiLookup, RegisteredApi } from './bind-sources.js';

/**
 * Every registered API with its auth hook (an empty lookup when apis.json does not exist).
 * Throws ConfigError for a broken registry file; credentials are read only when a
 * request needs them (for an API without auth scheme: to check that none is stored, see orphanGuarded).
 */
export async function loadApiLookup(deps: { env: Record<string, string | undefined>; pipeline: Pipeline; now?: () => number }): Promise<ApiLookup> {
  let paths: ConfigPaths;
  try {
    paths = configPaths(deps.env);
  } catch (error) {
    // No HOME and no XDG_CONFIG_HOME: there can be no registry, so every source is synthetic.
    if (error instanceof ConfigError && error.code === 'CONFIG_HOME_MISSING') return { get: () => undefined };
    throw error;
  }
  const registry = await apiRegistry(paths).read();
  const apis = new Map<string, RegisteredApi>();
  for (const [name, entry] of registry) {
    const api: RegisteredApi = { name, baseUrl: entry.baseUrl };
    if (entry.spec !== undefined) api.spec = entry.spec;
    const hook = authHookFor(entry, { paths, env: deps.env, pipeline: deps.pipeline, ...(deps.now ? { now: deps.now } : {}) });
    const auth = entry.auth === undefined ? orphanGuarded(paths, entry, hook) : hook;
    if (auth !== undefined) api.auth = auth;
    apis.set(name, api);
  }
  return { get: (name) => apis.get(name), list: () => [...apis.values()] };
}

/**
 * For an API without auth scheme: before its first request, checks that credentials.json holds
 * nothing for it either, so disagreeing files stop the request (refuseOrphanCredential) instead of
 * letting it go out silently without credentials. Sends no credential itself.
 */
function orphanGuarded(paths: ConfigPaths, entry: ApiEntry, hook: AuthHook | undefined): AuthHook {
  const checked = once(() => refuseOrphanCredential(paths, entry));
  const inner: AuthHook = hook ?? { origin: urlOrigin(entry.baseUrl), describe: () => 'none', secretNames: () => [], apply: async () => undefined };
  return {
    ...inner,
    async apply(req, ctx) {
      await checked();
      await inner.apply(req, ctx);
    },
  };
}
