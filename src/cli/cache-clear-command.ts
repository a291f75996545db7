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
    const { configPaths } = await import('../config/paths.js');
    const { descriptionCacheDir } = await import('../cache/description-cache.js');
    const { clearDescriptionCache } = await import('../cache/clear-description-cache.js');
    const dir = descriptionCacheDir(configPaths(this.context.env).cacheDir);
    const cleared = await clearDescriptionCache(dir);
    const documents = cleared.documents === 0 ? '' : `, ${cleared.documents} parsed Arazzo ${cleared.documents === 1 ? 'document' : 'documents'}`;
    const what = `${cleared.descriptions} fetched ${cleared.descriptions === 1 ? 'description' : 'descriptions'}${documents} and ${cleared.indexes} parsed ${cleared.indexes === 1 ? 'index' : 'indexes'}`;
    this.note(cleared.descriptions + cleared.indexes + cleared.documents === 0 ? `The description cache was already empty (${dir}).` : `Removed ${what} from ${dir}.`);
    return 0;
  }
}
