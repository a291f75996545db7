/** `tool api remove`: the registry entry, its secrets and its cached tokens go together. */

import { apiRegistry, requireApi } from './api-registry.js';
import { withConfigLock } from './config-lock.js';
import { credentialStore } from './credential-store.js';
import { configFiles, type ConfigPaths } from './paths.js';
import { tokenStore } from './token-store.js';

/**
 * Removes the API `name` everywhere. Throws ConfigError (API_NOT_FOUND) for an unknown name and
 * for a broken file, in which case nothing is changed: every file is read before any is written.
 */
export async function removeApi(paths: ConfigPaths, name: string): Promise<void> {
  const registry = apiRegistry(paths);
  const credentials = credentialStore(paths);
  const tokens = tokenStore(paths);
  await withConfigLock(paths, async (lock) => {
    requireApi(await registry.read(), name);
    await Promise.all([credentials.read(), tokens.read()]);
    // Secrets first: an interruption then leaves an entry without credentials, never the reverse.
    await credentials.updateLocked(lock, (entries) => void entries.delete(name));
    await tokens.updateLocked(lock, (entries) => void entries.delete(name));
    await registry.updateLocked(lock, (apis) => void apis.delete(name));
  }, { writes: configFiles(paths) });
}
