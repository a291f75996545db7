/** `tool api add`: validating a new registry entry and writing it. */

import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ApiEntry } from './api-entry.js';
import { apiRegistry } from './api-registry.js';
import { withConfigLock } from './config-lock.js';
import { credentialStore } from './credential-store.js';
import { ConfigError } from './errors.js';
import { configFiles, type ConfigPaths } from './paths.js';
import { refuseReadOnlyFiles } from './refuse-read-only.js';
import { tokenStore } from './token-store.js';
import { normaliseBaseUrl, parseHeaderFlag, parseHttpUrl, urlOrigin, validateApiName } from './validate-input.js';

export interface AddApiInput {
  name: string;
  baseUrl: string;
  spec?: string;
  /** `Name: value` strings as given to --header. */
  headers: string[];
  force: boolean;
  /** Relative --spec paths are resolved against this directory. */
  cwd: string;
}

export interface AddApiResult {
  entry: ApiEntry;
  /** An entry of that name existed and was replaced (--force). */
  replaced: boolean;
  /** --force moved the API to another origin, so its stored credentials were removed. */
  credentialsDropped: boolean;
}

/**
 * Validates and stores the entry. Throws ConfigError (exit 2) for a bad name, URL, header or
 * spec, and API_EXISTS when the name is taken and `force` is not set. With `force`, the auth
 * scheme is kept while the origin stays the same; credentials never follow an API to a new origin.
 */
export async function addApi(paths: ConfigPaths, input: AddApiInput): Promise<AddApiResult> {
  const entry: ApiEntry = { name: validateApiName(input.name), baseUrl: normaliseBaseUrl(input.baseUrl), headers: parseHeaders(input.headers) };
  if (input.spec !== undefined) entry.spec = await checkSpec(input.spec, input.cwd);
  const registry = apiRegistry(paths);
  // One lock around the whole read-check-write: a concurrent add, login or remove is never undone.
  return withConfigLock(paths, async (lock) => {
    const previous = (await registry.read()).get(entry.name);
    if (previous !== undefined && !input.force) {
      throw new ConfigError('API_EXISTS', `an API named "${entry.name}" is already registered (${previous.baseUrl})`, `Pass --force to replace it, or remove it first: tool api remove ${entry.name}`);
    }
    const sameOrigin = previous !== undefined && urlOrigin(previous.baseUrl) === urlOrigin(entry.baseUrl);
    if (sameOrigin && previous.auth !== undefined) entry.auth = previous.auth;
    const credentialsDropped = previous !== undefined && !sameOrigin && previous.auth !== undefined;
    if (previous !== undefined && !sameOrigin) {
      await refuseReadOnlyFiles(configFiles(paths));
      await credentialStore(paths).updateLocked(lock, (credentials) => void credentials.delete(entry.name));
      await tokenStore(paths).updateLocked(lock, (tokens) => void tokens.delete(entry.name));
    }
    await registry.updateLocked(lock, (apis) => {
      apis.set(entry.name, entry);
    });
    return { entry, replaced: previous !== undefined, credentialsDropped };
  }, { writes: [paths.apisFile] });
}

function parseHeaders(flags: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const flag of flags) {
    const [name, value] = parseHeaderFlag(flag);
    if (seen.has(name.toLowerCase())) throw new ConfigError('INVALID_HEADER', `--header ${name} is given twice`, 'Give each header once.');
    seen.add(name.toLowerCase());
    headers[name] = value;
  }
  return headers;
}

/** An http(s) URL as given, or a file path made absolute; throws ConfigError when the file does not exist. */
async function checkSpec(spec: string, cwd: string): Promise<string> {
  if (/^https?:\/\//i.test(spec)) return parseHttpUrl('--spec URL', spec).href;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) throw new ConfigError('INVALID_SPEC', `--spec must be a file path or an http(s) URL, got ${JSON.stringify(spec)}`);
  const path = resolve(cwd, spec);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) {
    throw new ConfigError('INVALID_SPEC', `--spec ${path} is not a file`, 'Give the path of the OpenAPI description (JSON or YAML) or its http(s) URL.');
  }
  return path;
}
