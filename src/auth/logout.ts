/** `tool auth logout`: forget how to authenticate to an API. */

import { apiRegistry, requireApi } from '../config/api-registry.js';
import { withConfigLock } from '../config/config-lock.js';
import { credentialStore } from '../config/credential-store.js';
import { configFiles, type ConfigPaths } from '../config/paths.js';
import { tokenStore } from '../config/token-store.js';

/**
 * Removes the API's stored secret, refresh token, cached tokens and auth scheme (its requests are
 * then sent without credentials). Returns whether anything was removed. Throws ConfigError for
 * an unknown API or a broken file (nothing is changed then).
 */
export async function logout(paths: ConfigPaths, name: string): Promise<boolean> {
  const registry = apiRegistry(paths);
  const credentials = credentialStore(paths);
  const tokens = tokenStore(paths);
  return withConfigLock(paths, async (lock) => {
    const entry = requireApi(await registry.read(), name);
    const [stored, cached] = await Promise.all([credentials.read(), tokens.read()]);
    const had = entry.auth !== undefined || stored.has(name) || cached.has(name);
    await credentials.updateLocked(lock, (entries) => void entries.delete(name));
    await tokens.updateLocked(lock, (entries) => void entries.delete(name));
    await registry.updateLocked(lock, (apis) => {
      const next = { ...requireApi(apis, name) };
      delete next.auth;
      apis.set(name, next);
    });
    return had;
  }, { writes: configFiles(paths) });
}
