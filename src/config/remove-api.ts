/** `tool api remove`: the registry entry, its secrets and its cached tokens go together. */

import { apiRegistry, requireApi } from './api-registry.js';
import { credentialStore } from './credential-store.js';
import type { ConfigPaths } from './paths.js';
import { tokenStore } from './token-store.js';

/**
 * Removes the API `name` everywhere. Throws ConfigError (API_NOT_FOUND) for an unknown name and
 * for a broken file, in which case nothing is changed: every file is read before any is written.
 */
export async function removeApi(paths: ConfigPaths, name: string): Promise<void> {
  const registry = apiRegistry(paths);
  const credentials = credentialStore(paths);
  const tokens = tokenStore(paths);
  requireApi(await registry.read(), name);
  await Promise.all([credentials.read(), tokens.read()]);
  // Secrets first: an interruption then leaves an entry without credentials, never the reverse.
  await credentials.update((entries) => void entries.delete(name));
  await tokens.update((entries) => void entries.delete(name));
  await registry.update((apis) => void apis.delete(name));
}
