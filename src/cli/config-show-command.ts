import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ToolCommand } from './tool-command.js';

/** `tool config show [path]`: the project settings that apply to a document or folder, each with where it came from. */
export class ConfigShowCommand extends ToolCommand {
  static override paths = [['config', 'show']];

  static override usage = Command.Usage({
    category: 'Config',
    description: 'show the project settings (tool.config.yaml) that apply to a document or folder',
    details: `
      Finds the project of \`<path>\` (a document or a folder; default: the current folder): the nearest folder, from there upwards, that holds \`.git\` or \`tool.config.yaml\`, never the home folder or \`/\`. Prints each setting the \`arazzo\` commands take from it, its effective value, and where that came from: a line of \`tool.config.yaml\`, or the default. A flag given to a command wins over both.

      An invalid \`tool.config.yaml\` exits 2, naming its file, line and key, as every \`arazzo\` command would. See docs/cli.md, Project settings.
    `,
    examples: [
      ['The settings of the current project', '$0 config show'],
      ['As JSON', '$0 config show workflows/shop.arazzo.yaml --output json'],
    ],
  });

  target = Option.String({ name: 'path', required: false });

  output = Option.String('--output', 'text', { description: 'Output format: text or json', validator: t.isEnum(['text', 'json'] as const) });

  async execute(): Promise<number> {
    const { configShow } = await import('./actions/config-show.js');
    return configShow({ path: this.target, output: this.output }, this.io);
  }
}
