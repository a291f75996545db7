/** The API registry (apis.json): which APIs exist, their base URLs, headers and auth schemes; no secrets. */

import type { ApiEntry } from './api-entry.js';
import { ConfigError } from './errors.js';
import { keyedStore, type KeyedStore } from './keyed-store.js';
import { parseAuthConfig } from './parse-auth-config.js';
import type { ConfigPaths } from './paths.js';
import { checked, objectAt, optionalString, stringAt, stringMap, type Path } from './shape.js';
import { normaliseBaseUrl, validateApiName, validateHeaderName } from './validate-input.js';

/** Registered APIs by name, in the order they were added. */
export type Registry = Map<string, ApiEntry>;

/** The registry file of these paths; read() gives an empty map when apis.json does not exist. */
export function apiRegistry(paths: ConfigPaths): KeyedStore<ApiEntry> {
  return keyedStore({ path: paths.apisFile, section: 'apis', configDir: paths.configDir, secret: false, parseEntry: parseApiEntry, toJson });
}

/** The entry for `name`; throws ConfigError (API_NOT_FOUND, exit 2) with the fix-it command when there is none. */
export function requireApi(registry: Registry, name: string): ApiEntry {
  const entry = registry.get(name);
  if (entry !== undefined) return entry;
  const known = [...registry.keys()];
  throw new ConfigError(
    'API_NOT_FOUND',
    `no API named "${name}" is registered${known.length > 0 ? ` (registered: ${known.join(', ')})` : ''}`,
    `Add it first: tool api add ${name} <base-url>`,
  );
}

function parseApiEntry(value: unknown, path: Path, name: string): ApiEntry {
  checked(path, () => validateApiName(name));
  const raw = objectAt(value, path);
  const baseUrl = stringAt(raw.baseUrl, [...path, 'baseUrl']);
  const entry: ApiEntry = {
    name,
    baseUrl: checked([...path, 'baseUrl'], () => normaliseBaseUrl(baseUrl)),
    headers: stringMap(raw.headers, [...path, 'headers']),
  };
  for (const header of Object.keys(entry.headers)) checked([...path, 'headers', header], () => validateHeaderName('header', header));
  const spec = optionalString(raw.spec, [...path, 'spec']);
  if (spec !== undefined) entry.spec = spec;
  if (raw.auth !== undefined) entry.auth = parseAuthConfig(raw.auth, [...path, 'auth']);
  return entry;
}

function toJson(entry: ApiEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { baseUrl: entry.baseUrl };
  if (entry.spec !== undefined) out.spec = entry.spec;
  if (Object.keys(entry.headers).length > 0) out.headers = entry.headers;
  if (entry.auth !== undefined) out.auth = entry.auth;
  return out;
}
