import { configPaths } from '../../config/paths.js';
import { removeApi } from '../../config/remove-api.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool api remove`. */
export interface ApiRemoveOptions {
  name: string;
}

/** `tool api remove <name>`: removes the API with its credentials and tokens; throws ToolError as removeApi does. */
export async function apiRemove(options: ApiRemoveOptions, { context, note }: CommandIo): Promise<number> {
  await removeApi(configPaths(context.env), options.name);
  note(`Removed API ${options.name} with its credentials and tokens.`);
  return 0;
}
