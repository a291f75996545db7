import { apiRegistry } from '../../config/api-registry.js';
import { configPaths } from '../../config/paths.js';
import { apiToJson, formatApiTable } from '../api-format.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool api list`. */
export interface ApiListOptions {
  output: 'table' | 'json';
}

/** `tool api list`: prints the registered APIs as a table, or as a JSON array; returns the exit code. */
export async function apiList(options: ApiListOptions, { context, note }: CommandIo): Promise<number> {
  const entries = [...(await apiRegistry(configPaths(context.env)).read()).values()];
  if (options.output === 'json') {
    context.stdout.write(`${JSON.stringify(entries.map(apiToJson), null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    note('No APIs are registered. Add one: tool api add <name> <base-url>');
    return 0;
  }
  context.stdout.write(formatApiTable(entries));
  return 0;
}
