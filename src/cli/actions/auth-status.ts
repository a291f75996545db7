import { authStatus } from '../../auth/auth-status.js';
import { apiRegistry, requireApi } from '../../config/api-registry.js';
import { credentialStore } from '../../config/credential-store.js';
import { configPaths } from '../../config/paths.js';
import { tokenStore } from '../../config/token-store.js';
import { formatAuthStatus } from '../auth-format.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool auth status`. */
export interface AuthStatusOptions {
  name: string | undefined;
  output: 'text' | 'json';
}

/** `tool auth status [name]`: prints the credentials state of one API or of all; throws ToolError for an unknown name. */
export async function showAuthStatus(options: AuthStatusOptions, { context, note }: CommandIo): Promise<number> {
  const { env } = context;
  const paths = configPaths(env);
  const registry = await apiRegistry(paths).read();
  const entries = options.name === undefined ? [...registry.values()] : [requireApi(registry, options.name)];
  const credentials = await credentialStore(paths).read();
  const tokens = await tokenStore(paths).read();
  const now = Date.now();
  const statuses = entries.map((entry) => authStatus(entry, credentials.get(entry.name), tokens.get(entry.name), env, now));
  if (options.output === 'json') {
    const value = options.name === undefined ? statuses : statuses[0];
    context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return 0;
  }
  if (statuses.length === 0) {
    note('No APIs are registered. Add one: tool api add <name> <base-url>');
    return 0;
  }
  context.stdout.write(formatAuthStatus(statuses, now));
  return 0;
}
