import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CommandUsageError } from '../errors/tool-error.js';

/**
 * The --tool-allow-read values as given, after checking that each names a folder (relative to
 * `cwd`). Throws CommandUsageError for one that does not exist or is not a folder: a typo would
 * otherwise widen nothing and leave the user puzzled by the refusal it was meant to lift.
 */
export async function checkAllowReadFolders(values: readonly string[], cwd: string): Promise<string[]> {
  for (const value of values) {
    const info = await stat(resolve(cwd, value)).catch(() => undefined);
    if (info === undefined) throw new CommandUsageError(`--tool-allow-read ${JSON.stringify(value)}: no such folder`, 'Give a folder that exists, relative to the current folder or absolute.');
    if (!info.isDirectory()) throw new CommandUsageError(`--tool-allow-read ${JSON.stringify(value)} is not a folder`, 'Give the folder that holds the descriptions, not a file.');
  }
  return [...values];
}
