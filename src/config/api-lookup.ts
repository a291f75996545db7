/** The registry as the workflow binder sees it: name -> base URL and auth hook. */

import { authHookFor } from '../auth/auth-hook-for.js';
import type { Pipeline } from '../http/create-pipeline.js';
import type { ApiLookup, RegisteredApi } from '../run/bind-sources.js';
import { apiRegistry } from './api-registry.js';
import { ConfigError } from './errors.js';
import { configPaths, type ConfigPaths } from './paths.js';

/**
 * Every registered API with its auth hook (an empty lookup when apis.json does not exist).
 * Throws ConfigError (exit 2) for a broken registry file; credentials are read only when a
 * request needs them.
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
    const auth = authHookFor(entry, { paths, env: deps.env, pipeline: deps.pipeline, ...(deps.now ? { now: deps.now } : {}) });
    if (auth !== undefined) api.auth = auth;
    apis.set(name, api);
  }
  return { get: (name) => apis.get(name) };
}
