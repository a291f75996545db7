import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ToolCommand } from './tool-command.js';

/** `tool api show <name>`: one registry entry. */
export class ApiShowCommand extends ToolCommand {
  static override paths = [['api', 'show']];

  static override usage = Command.Usage({
    category: 'APIs',
    description: 'show one registered API',
    details: `
      Prints the API's base URL, description, extra headers and auth scheme (never a secret; see \`tool auth status\` for whether one is stored).
    `,
    examples: [['Show an API', '$0 api show petstore']],
  });

  name = Option.String({ name: 'name', required: true });

  output = Option.String('--output', 'text', { description: 'text or json', validator: t.isEnum(['text', 'json'] as const) });

  async execute(): Promise<number> {
    const { apiShow } = await import('./actions/api-show.js');
    return apiShow(this, this.io);
  }
}
