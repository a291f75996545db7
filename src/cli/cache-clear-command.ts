import { Command } from 'clipanion';
import { ToolCommand } from './tool-command.js';

/** `tool cache clear`: deletes the description cache (fetched descriptions, parsed operation indexes, parsed Arazzo documents). */
export class CacheClearCommand extends ToolCommand {
  static override paths = [['cache', 'clear']];

  static override usage = Command.Usage({
    category: 'Cache',
    description: 'delete the cached API descriptions, their parsed operation indexes and the parsed Arazzo documents',
    details: `
      Removes \`$XDG_CACHE_HOME/tool/descriptions/\` (default \`~/.cache/tool/descriptions/\`): the http(s) descriptions fetched for \`arazzo run\` and \`api ops\`, with their ETag and Last-Modified, the parsed operation indexes of fetched and local descriptions, and the parsed Arazzo documents of \`arazzo run\`, \`validate\` and \`graph\`. The next command fetches and parses again.

      Nothing else is touched: cached OAuth access tokens (\`tokens.json\`), the registry and the credentials stay. To drop an API's tokens, use \`tool auth logout <name>\`.
    `,
    examples: [['Forget every cached description', '$0 cache clear']],
  });

  async execute(): Promise<number> {
    const { cacheClear } = await import('./actions/cache-clear.js');
    return cacheClear(this.io);
  }
}
