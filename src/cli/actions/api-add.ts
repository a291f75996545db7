import { addApi } from '../../config/add-api.js';
import { configPaths } from '../../config/paths.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool api add`. */
export interface ApiAddOptions {
  name: string;
  baseUrl: string;
  spec: string | undefined;
  headers: string[];
  force: boolean;
}

/** `tool api add <name> <base-url>`: registers the API and says what to do next; throws ToolError as addApi does. */
export async function apiAdd(options: ApiAddOptions, { context, note }: CommandIo): Promise<number> {
  const paths = configPaths(context.env);
  const result = await addApi(paths, { name: options.name, baseUrl: options.baseUrl, spec: options.spec, headers: options.headers, force: options.force, cwd: context.cwd });
  note(`${result.replaced ? 'Replaced' : 'Added'} API ${result.entry.name} (${result.entry.baseUrl}) in ${paths.apisFile}`);
  if (result.credentialsDropped) note(`The origin changed, so its stored credentials were removed. Log in again: tool auth login ${result.entry.name}`);
  else if (result.entry.auth === undefined) note(`To send credentials: tool auth login ${result.entry.name}`);
  return 0;
}
