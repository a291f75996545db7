/** Reading a local description or `$ref` target: confined, regular files only, bounded. */

import { constants, type Stats } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { projectFolder } from './project-folder.js';
import { isInside, type ReadPolicy } from './read-policy.js';
import { readBoundedText } from '../arazzo/read-bounded.js';

/** Thrown by readLocalFile; `refused` when a rule forbids the read, otherwise the file could not be read. */
export class LocalReadError extends Error {
  override name = 'LocalReadError';

  constructor(
    readonly refused: boolean,
    /** What is wrong and what to do, without the file name (callers say which file or ref). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

// A FIFO opened for reading would wait for a writer; O_NONBLOCK makes open return at once so fstat can refuse it.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads `path` as UTF-8 when its real path (symlinks followed) is inside one of `roots` (any
 * root when `roots` is undefined) and outside every `policy.denied` folder, it is a regular file,
 * and it holds at most `policy.maxBytes`. Throws LocalReadError otherwise.
 */
export async function readLocalFile(path: string, policy: ReadPolicy, roots: readonly string[] | undefined): Promise<string> {
  const { real } = await locate(path, policy, roots);
  const handle = await open(real, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) => {
    throw unreadable(error);
  });
  try {
    // The file may have been swapped since the stat: check what was opened.
    const info = await handle.stat();
    checkKind(info, policy.maxBytes);
    return await readBoundedText(handle, info.size, policy.maxBytes, () => new LocalReadError(true, `is larger than ${formatBytes(policy.maxBytes)}; refusing to read it`));
  } finally {
    await handle.close();
  }
}

/** The real path of `path` and its stat, after the place and kind checks (stat first: a FIFO or device is refused without opening it). */
async function locate(path: string, policy: ReadPolicy, roots: readonly string[] | undefined): Promise<{ real: string; info: Stats }> {
  const real = await realpath(path).catch((error: NodeJS.ErrnoException) => {
    throw unreadable(error);
  });
  await checkPlace(real, policy, roots);
  const info = await stat(real).catch((error: NodeJS.ErrnoException) => {
    throw unreadable(error);
  });
  checkKind(info, policy.maxBytes);
  return { real, info };
}

/** Where a file may be read from; throws LocalReadError (refused) for a path outside the roots or inside a denied folder. */
export async function checkPlace(real: string, policy: ReadPolicy, roots: readonly string[] | undefined): Promise<void> {
  for (const folder of policy.denied) {
    if (isInside(real, await realOrResolved(folder))) {
      throw new LocalReadError(true, `it is inside tool's own folder ${folder}, which descriptions may never read`);
    }
  }
  if (roots === undefined) return;
  for (const root of roots) if (isInside(real, await realOrResolved(root))) return;
  const project = roots.length > 0 && policy.projectFrom !== undefined ? await projectFolder(await realOrResolved(policy.projectFrom)) : undefined;
  const remedy = async (folder: string) =>
    policy.allowReadFrom === undefined ? 'copy the file next to the Arazzo document' : `pass --tool-allow-read ${shownFolder(folder, await realOrResolved(policy.allowReadFrom))} if you trust it`;
  if (project !== undefined && isInside(real, project)) {
    // The project is open but for its hidden folders and files (.git, .env, .aws…), which only --tool-allow-read opens.
    const segments = relative(project, real).split(sep);
    const hidden = segments.findIndex((segment) => segment.startsWith('.'));
    if (hidden < 0) return;
    const folder = join(project, ...segments.slice(0, hidden + 1));
    throw new LocalReadError(true, `it resolves to ${real}, inside ${hidden === segments.length - 1 ? 'the hidden file' : 'the hidden folder'} ${folder} of the project ${project}, which descriptions do not read; ${await remedy(hidden === segments.length - 1 ? dirname(real) : folder)}`);
  }
  const allowed = project === undefined ? roots : [...roots, `the project ${project}`];
  const where = roots.length === 0 ? 'no local files may be read here' : `files must stay inside ${allowed.join(' or ')}`;
  throw new LocalReadError(true, `it resolves to ${real}, outside the allowed folder (${where}); ${await remedy(dirname(real))}`);
}

/** `folder` as the user would type it from `cwd`: relative when that is possible, quoted when it holds spaces. */
function shownFolder(folder: string, cwd: string): string {
  const rel = relative(cwd, folder);
  const shown = rel === '' ? '.' : isAbsolute(rel) ? folder : rel;
  return /[\s'"$`\\]/.test(shown) ? `'${shown.replace(/'/g, `'\\''`)}'` : shown;
}

function checkKind(info: { isFile(): boolean; isDirectory(): boolean; size: number }, maxBytes: number): void {
  if (info.isDirectory()) throw new LocalReadError(false, 'is a directory; point at the description file');
  if (!info.isFile()) throw new LocalReadError(true, 'is not a regular file (a FIFO, socket or device); only regular files are read');
  if (info.size > maxBytes) throw new LocalReadError(true, `is larger than ${formatBytes(maxBytes)}; refusing to read it`);
}

async function realOrResolved(folder: string): Promise<string> {
  return realpath(folder).catch(() => resolve(folder));
}

function unreadable(error: NodeJS.ErrnoException): LocalReadError {
  const reason =
    error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 'file not found'
    : error.code === 'EISDIR' ? 'is a directory; point at the description file'
    : error.code === 'EACCES' || error.code === 'EPERM' ? 'permission denied; make the file readable'
    : error.message;
  return new LocalReadError(false, reason, { cause: error });
}

/** "10 MiB", "512 KiB" or "100 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
