import { logout } from '../../auth/logout.js';
import { configPaths } from '../../config/paths.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool auth logout`. */
export interface AuthLogoutOptions {
  name: string;
}

/** `tool auth logout <name>`: removes the API's credentials and tokens; throws ToolError as logout does. */
export async function authLogout(options: AuthLogoutOptions, { context, note }: CommandIo): Promise<number> {
  const removed = await logout(configPaths(context.env), options.name);
  note(removed ? `Logged out of ${options.name}: its credentials and tokens were removed.` : `${options.name} had no credentials; nothing to remove.`);
  return 0;
}
