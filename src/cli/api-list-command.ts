import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ToolCommand } from './tool-command.js';

/** `tool api list`: the registered APIs as a table (or a JSON array). */
export class ApiListCommand extends ToolCommand {
  static override paths = [['api', 'list']];

  static override usage = Command.Usage({
    category: 'APIs',
    description: 'list the registered APIs',
    details: `
      Prints one row per API on stdout: name, base URL, auth scheme and description. \`--output json\` prints an array of the registry entries instead (no secrets: they are never in the registry).
    `,
    examples: [
      ['List the APIs', '$0 api list'],
      ['As JSON for a script', '$0 api list --output json'],
    ],
  });

  output = Option.String('--output', 'table', { description: 'table or json', validator: t.isEnum(['table', 'json'] as const) });

  async execute(): Promise<number> {
    const { apiList } = await import('./actions/api-list.js');
    return apiList(this, this.io);
  }
}
