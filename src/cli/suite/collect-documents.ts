/**
 * The documents `arazzo test` runs: its arguments (files, folders, globs) expanded in the order
 * given, each file once. A folder, and no argument at all (the working directory), stands for its
 * `*.arazzo.{yaml,yml,json}` files at any depth, hidden folders and node_modules left out.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CommandUsageError, ToolError } from '../../errors/tool-error.js';
import { expandFileArguments } from '../file-globs.js';

/** The names a folder argument takes. */
const DOCUMENT_NAME = /\.arazzo\.(ya?ml|json)$/;

/** The most documents one folder may hold: past it, a pattern is asked for. */
const MAX_DOCUMENTS = 10_000;

/**
 * The document files of `args` (relative to `cwd` as written), sorted within each folder or glob.
 * Throws CommandUsageError naming every argument that matched nothing (a missing file, a folder
 * without documents, a glob without matches).
 */
export async function collectDocuments(args: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  const unmatched: string[] = [];
  for (const arg of args.length === 0 ? ['.'] : args) {
    const found = await filesOf(arg, cwd);
    if (found.length === 0) unmatched.push(arg);
    files.push(...found);
  }
  if (unmatched.length > 0) {
    const which = args.length === 0 ? 'under the working directory (*.arazzo.yaml, *.arazzo.yml, *.arazzo.json)' : `matches ${unmatched.map((arg) => JSON.stringify(arg)).join(', ')}`;
    throw new CommandUsageError(`no Arazzo document ${which}`, 'Give files, folders holding *.arazzo.yaml, *.arazzo.yml or *.arazzo.json files, or globs (* and ? within a name, ** any number of folders).');
  }
  return [...new Set(files)];
}

async function filesOf(arg: string, cwd: string): Promise<string[]> {
  if (/[*?]/.test(arg)) {
    try {
      return await expandFileArguments([arg], cwd);
    } catch (error) {
      // A glob that matches nothing is named with the others; one that matches too much stops here.
      if (error instanceof ToolError && error.message.startsWith('no file matches')) return [];
      throw error;
    }
  }
  const info = await stat(resolve(cwd, arg)).catch(() => undefined);
  if (info === undefined) return [];
  if (!info.isDirectory()) return [arg];
  const found: string[] = [];
  await walk(arg === '.' ? '' : arg, cwd, found);
  return found;
}

/** Depth first, names sorted: the same order on every machine. */
async function walk(folder: string, cwd: string, found: string[]): Promise<void> {
  const entries = await readdir(resolve(cwd, folder || '.'), { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = folder === '' ? entry.name : join(folder, entry.name);
    if (entry.isDirectory()) await walk(path, cwd, found);
    else if ((entry.isFile() || entry.isSymbolicLink()) && DOCUMENT_NAME.test(entry.name)) found.push(path);
    if (found.length > MAX_DOCUMENTS) throw new CommandUsageError(`${folder || '.'} holds more than ${MAX_DOCUMENTS} Arazzo documents`, 'Give a narrower folder or glob.');
  }
}
