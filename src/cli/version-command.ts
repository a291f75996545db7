import { Command } from 'clipanion';
import { VERSION } from '../version.js';
import type { ToolContext } from './context.js';

/** `tool --version` and `tool -v`. */
export class VersionCommand extends Command<ToolContext> {
  static override paths = [['--version'], ['-v']];

  static override usage = Command.Usage({ description: 'print the version of tool' });

  async execute(): Promise<number> {
    this.context.stdout.write(`${VERSION}\n`);
    return 0;
  }
}
