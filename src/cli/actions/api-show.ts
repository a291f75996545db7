import { apiRegistry, requireApi } from '../../config/api-registry.js';
import { configPaths } from '../../config/paths.js';
import { apiToJson, formatApiDetails } from '../api-format.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool api show`. */
export interface ApiShowOptions {
  name: string;
  output: 'text' | 'json';
}

/** `tool api show <name>`: prints one API's entry; throws ToolError for an unknown name. */
export async function apiShow(options: ApiShowOptions, { context }: CommandIo): Promise<number> {
  const entry = requireApi(await apiRegistry(configPaths(context.env)).read(), options.name);
  context.stdout.write(options.output === 'json' ? `${JSON.stringify(apiToJson(entry), null, 2)}\n` : formatApiDetails(entry));
  return 0;
}
