/**
 * The files `tool arazzo merge-reports` reads: each argument a file or a folder (which stands for
 * its own `*.json`, `*.jsonl` and `*.xml` files, sorted, not those of its subfolders), sorted by
 * kind: suite reports, results files, JUnit files.
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { CommandUsageError, FileError } from '../../errors/tool-error.js';

/** The inputs by kind, as given (relative to the working directory), each once. */
export interface MergeInputs {
  reports: string[];
  results: string[];
  junit: string[];
}

const KIND_OF: Record<string, keyof MergeInputs> = { '.json': 'reports', '.jsonl': 'results', '.xml': 'junit' };

/**
 * Expands and sorts `args`. Throws CommandUsageError when none is given or a folder holds no such
 * file, FileError for a path that does not exist or a file of another extension.
 */
export async function mergeInputs(args: readonly string[], cwd: string): Promise<MergeInputs> {
  if (args.length === 0) throw new CommandUsageError('give the shards\' files to merge: folders, or .json, .jsonl and .xml files', 'For example: tool arazzo merge-reports shards/ --report suite.json');
  const inputs: MergeInputs = { reports: [], results: [], junit: [] };
  const seen = new Set<string>();
  const add = (path: string, kind: keyof MergeInputs) => {
    const key = resolve(cwd, path);
    if (seen.has(key)) return;
    seen.add(key);
    inputs[kind].push(path);
  };
  for (const arg of args) {
    const info = await stat(resolve(cwd, arg)).catch((error: NodeJS.ErrnoException) => {
      throw new FileError(`cannot read ${arg}: ${error.code === 'ENOENT' ? 'no such file or folder' : (error.code ?? error.message)}`, 'Give the folders or files the shards wrote (paths relative to the working directory).');
    });
    if (info.isDirectory()) {
      const names = (await readdir(resolve(cwd, arg), { withFileTypes: true })).filter((entry) => entry.isFile() && KIND_OF[extname(entry.name)] !== undefined).map((entry) => entry.name).sort();
      if (names.length === 0) throw new CommandUsageError(`the folder ${arg} holds no .json, .jsonl or .xml file to merge`, 'Give the folder the shards wrote their --report, --results and --junit files to.');
      for (const name of names) add(join(arg, name), KIND_OF[extname(name)]!);
      continue;
    }
    const kind = KIND_OF[extname(arg)];
    if (kind === undefined) throw new FileError(`cannot merge ${arg}: give .json suite reports, .jsonl results files or .xml JUnit files`, 'merge-reports reads the --report, --results and --junit files of `tool arazzo test`.');
    add(arg, kind);
  }
  return inputs;
}
