/** The registry as the workflow binder sees it: name -> base URL and auth hook. */

import { authHookFor } from '../auth/auth-hook-for.js';
import type { Pipeline } from '../http/create-pipeline.js';
import type { ApiLookup, RegisteredApi } from '../run/bind-sources.js';
import { apiRegistry } from './api-registry.js';
import { configPaths } from './paths.js';

/**
 * Every registered API with its auth hook (an empty lookup when apis.json does not exist).
 * Throws ConfigError (exit 2) for a broken registry file; credentials are read only when a
 * request needs them.
 */
export async function loadApiLookup(deps: { env: Record<string, string | undefined>; pipeline: Pipeline; now?: () => number }): Promise<ApiLookup> {
  const paths = configPaths(deps.env);
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
