import { readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Folders of other bundles or Node versions kept next to the current one (a few MiB each). */
const KEEP_OTHERS = 3;

/**
 * The folder of cached code for this bundle on this Node: `$XDG_CACHE_HOME/tool/code-cache/<bundle
 * id>-<runtime hash>`. `runtime` names Node's version and platform and the flags Node was started
 * with (V8 rejects code cached under other flags; a folder per flag set keeps two ways of running
 * tool from overwriting each other's cache). Undefined when TOOL_CODE_CACHE is 0, false or off,
 * or when neither XDG_CACHE_HOME nor HOME is an absolute path.
 */
export function codeCacheDir(env: Record<string, string | undefined>, bundleId: string, runtime: string): string | undefined {
  if (['0', 'false', 'off'].includes((env.TOOL_CODE_CACHE ?? '').toLowerCase())) return undefined;
  const cacheHome = toolCacheHome(env);
  if (cacheHome === undefined) return undefined;
  return join(cacheHome, 'code-cache', `${bundleId}-${fnv1a(runtime)}`);
}

/**
 * `$XDG_CACHE_HOME/tool`, or `$HOME/.cache/tool`, by the rules of configPaths (src/config/paths.ts,
 * whose errors module would cost every start-up its load); undefined where configPaths throws.
 */
export function toolCacheHome(env: Record<string, string | undefined>): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'tool');
  const home = env.HOME;
  if (home !== undefined && home !== '' && isAbsolute(home)) return join(home, '.cache', 'tool');
  return undefined;
}

/**
 * Whether the cache folder `dir` may be read: cached code runs as the user's own, so the folder and
 * the `code-cache` folder above it must belong to `uid` (the process's user) and be writable by no
 * one else, as tool creates them (0700). True when `dir` does not exist yet (nothing is read, and
 * the write at exit creates it); true without a `uid` (Windows has no such modes). Never throws.
 */
export function mayUseCacheDir(dir: string, uid: number | undefined): boolean {
  if (uid === undefined) return true;
  const own = (stats: Stats | undefined) => stats === undefined || (stats.isDirectory() && stats.uid === uid && (stats.mode & 0o022) === 0);
  try {
    return own(statSync(join(dir, '..'), { throwIfNoEntry: false })) && own(statSync(dir, { throwIfNoEntry: false }));
  } catch {
    return false;
  }
}

/** Removes the sibling folders of `dir` beyond the KEEP_OTHERS most recently changed ones. Never throws. */
export function pruneOtherCaches(dir: string, keep = KEEP_OTHERS): void {
  const parent = join(dir, '..');
  try {
    const others = readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((path) => path !== dir)
      .map((path) => ({ path, changed: statSync(path).mtimeMs }))
      .sort((a, b) => b.changed - a.changed);
    for (const old of others.slice(keep)) rmSync(old.path, { recursive: true, force: true });
  } catch {
    // Another process may be pruning too; the next new folder tries again.
  }
}

/** 32-bit FNV-1a of a string's UTF-16 code units, as 8 hex digits: names a folder, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
