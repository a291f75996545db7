import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { setMemoryFlags, withDefaultFlags } from '../v8-flags.js';
import { codeCacheDir, mayUseCacheDir, pruneOtherCaches } from './code-cache-dir.js';
import { ScriptLoader } from './script-loader.js';

/**
 * Runs the bundled program; with src/bin.ts, one of the two modules that touch `process`. This is
 * the body of dist/bundle/tool.js, which scripts/bundle.js writes with the bundle's id (a hash of
 * its files). Loads `file` (dist/bundle/main.cjs: src/bin.ts bundled) through the ScriptLoader
 * with the code cache for this bundle, and writes that cache when the process exits if a script
 * had none. `packages` names the packages bundled on their own (scripts/bundle.js, LAZY_PACKAGES).
 * TOOL_CODE_CACHE=0 runs without a cache.
 */
export function startBundle(file: string, bundleId: string, packages: Record<string, string> = {}): void {
  // Before anything is compiled: code is cached under the flags it was compiled with.
  setMemoryFlags();
  const runtime = [process.version, process.versions.v8, process.platform, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''].join('\n');
  const wanted = codeCacheDir(process.env, bundleId, runtime);
  const cacheDir = wanted !== undefined && mayUseCacheDir(wanted, process.getuid?.()) ? wanted : undefined;
  const loader = new ScriptLoader({ root: dirname(file), cacheDir, withDefaultFlags, packages });
  if (cacheDir !== undefined) {
    const existed = existsSync(cacheDir);
    process.once('exit', () => {
      if (loader.saveCache() && !existed) pruneOtherCaches(cacheDir);
    });
  }
  loader.load(file);
}
