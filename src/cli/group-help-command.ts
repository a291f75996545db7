import { Command } from 'clipanion';
import type { ToolContext } from './context.js';

/** `tool <group>` or `tool <group> --help`: lists the group's subcommands (e.g. `tool arazzo`). */
export function groupHelpCommand(group: string, description: string) {
  return class GroupHelpCommand extends Command<ToolContext> {
    static override paths = [[group], [group, '--help'], [group, '-h']];

    static override usage = Command.Usage({ category: 'Help', description });

    async execute(): Promise<number> {
      const lines = [`tool ${group}: ${description}`, '', 'Commands:'];
      for (const def of this.cli.definitions()) {
        const path = def.path.replace(/^tool /, '');
        if (!path.startsWith(`${group} `) || def.category === 'Help') continue;
        lines.push(`  tool ${path.padEnd(34)} ${def.description ?? ''}`.trimEnd());
      }
      lines.push('', `Run \`tool ${group} <command> --help\` for a command's options and examples.`);
      this.context.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    }
  };
}
