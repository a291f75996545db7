import { clearDescriptionCache } from '../../cache/clear-description-cache.js';
import { descriptionCacheDir } from '../../cache/description-cache.js';
import { configPaths } from '../../config/paths.js';
import type { CommandIo } from './command-io.js';

/** `tool cache clear`: empties the description cache and says what it removed. */
export async function cacheClear({ context, note }: CommandIo): Promise<number> {
  const dir = descriptionCacheDir(configPaths(context.env).cacheDir);
  const cleared = await clearDescriptionCache(dir);
  const documents = cleared.documents === 0 ? '' : `, ${cleared.documents} parsed Arazzo ${cleared.documents === 1 ? 'document' : 'documents'}`;
  const what = `${cleared.descriptions} fetched ${cleared.descriptions === 1 ? 'description' : 'descriptions'}${documents} and ${cleared.indexes} parsed ${cleared.indexes === 1 ? 'index' : 'indexes'}`;
  note(cleared.descriptions + cleared.indexes + cleared.documents === 0 ? `The description cache was already empty (${dir}).` : `Removed ${what} from ${dir}.`);
  return 0;
}
