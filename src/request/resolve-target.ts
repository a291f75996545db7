/** What `tool get <url>` talks to: an absolute URL, or `<api-name>/<path>` under a registered API. */

import { authHookFor } from '../auth/auth-hook-for.js';
import { CommandUsageError } from '../errors/tool-error.js';
import type { ApiEntry } from '../config/api-entry.js';
import { apiRegistry, requireApi } from '../config/api-registry.js';
import { refuseOrphanCredential } from '../config/credential-binding.js';
import { configPaths } from '../config/paths.js';
import type { Pipeline } from '../http/create-pipeline.js';
import type { AuthHook } from '../http/types.js';

export interface Target {
  /** Absolute http(s) URL, query included. */
  url: string;
  /** The registered API, for `<api-name>/<path>`. */
  api?: ApiEntry;
  /** The API's auth chain (registry headers and credentials); applied only on the API's origin. */
  auth?: AuthHook;
}

const HTTP_URL = /^https?:\/\//i;
const OTHER_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const API_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Resolves the command's `<url>` argument. An absolute URL is used as is, with no stored
 * credentials; `<api-name>/<path>` is appended to that API's base URL and gets its auth hook.
 * Throws CommandUsageError for anything else and ConfigError (exit 2, with the `tool api add`
 * command) for an unknown API, a broken registry, or a credential stored for an API without auth scheme.
 */
export async function resolveTarget(target: string, deps: { env: Record<string, string | undefined>; pipeline: Pipeline }): Promise<Target> {
  if (HTTP_URL.test(target)) return { url: absoluteUrl(target) };
  if (OTHER_URL.test(target)) throw new CommandUsageError(`${JSON.stringify(target)}: only http and https URLs are supported`);
  const cut = target.search(/[/?]/);
  const name = cut === -1 ? target : target.slice(0, cut);
  if (!API_NAME.test(name)) {
    const hint = /[.:]/.test(name) ? `For a URL, give the scheme: https://${target}` : 'Give an absolute http(s) URL, or <api-name>/<path> for a registered API (see tool api list).';
    throw new CommandUsageError(`${JSON.stringify(target)} is neither an http(s) URL nor <api-name>/<path>`, hint);
  }
  const paths = configPaths(deps.env);
  const api = requireApi(await apiRegistry(paths).read(), name);
  const rest = cut === -1 ? '' : target.slice(cut);
  // Appended, not resolved: `/pets` under https://host/v3 must stay under /v3.
  const url = absoluteUrl(`${api.baseUrl}${rest.startsWith('?') || rest === '' ? rest : `/${rest.replace(/^\/+/, '')}`}`);
  // An API without auth scheme but with a stored credential: the files disagree, so say so rather than send nothing.
  await refuseOrphanCredential(paths, api);
  const auth = authHookFor(api, { paths, env: deps.env, pipeline: deps.pipeline });
  return { url, api, ...(auth ? { auth } : {}) };
}

function absoluteUrl(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    throw new CommandUsageError(`${JSON.stringify(text)} is not a valid URL`);
  }
}
