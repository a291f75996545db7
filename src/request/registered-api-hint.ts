/** The hint for a bare URL that a registered API owns: it went without that API's credentials. */

import type { ApiEntry } from '../config/api-entry.js';
import { apiRegistry } from '../config/api-registry.js';
import { configPaths } from '../config/paths.js';
import { printableLine } from '../output/printable.js';
import { redactUrl, secretNames } from '../output/redact.js';

/**
 * `this URL is API "pets"'s: tool get pets/me sends its credentials` when `url` lies under the
 * base URL (origin and path prefix) of a registered API that has credentials; undefined otherwise,
 * and when the registry cannot be read (a hint is never worth an error). Secret-like query
 * values are `***`.
 */
export async function registeredApiHint(url: string, method: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  let apis: ApiEntry[];
  try {
    apis = [...(await apiRegistry(configPaths(env)).read()).values()];
  } catch {
    return undefined;
  }
  const target = new URL(url);
  let best: { api: ApiEntry; rest: string } | undefined;
  for (const api of apis) {
    if (api.auth === undefined) continue;
    const rest = pathUnder(target, new URL(api.baseUrl));
    if (rest !== undefined && (best === undefined || api.baseUrl.length > best.api.baseUrl.length)) best = { api, rest };
  }
  if (best === undefined) return undefined;
  const shown = redactUrl(`${best.rest.replace(/^\//, '')}${target.search}`, secretNames(undefined));
  return printableLine(`this URL is API "${best.api.name}"'s: tool ${method.toLowerCase()} ${best.api.name}/${shown} sends its credentials`);
}

/** The path of `url` below `base` (`/me` for /v1/me under /v1), or undefined when it is not below it. */
function pathUnder(url: URL, base: URL): string | undefined {
  if (url.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.pathname === prefix) return '';
  return url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
}
