import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Script } from 'node:vm';

/** How the loader steps out of tool's V8 flags: v8-flags.ts's withDefaultFlags, or a stand-in in tests. */
export type FlagGuard = <T>(fn: () => T, verify?: boolean) => T;

export interface ScriptLoaderOptions {
  /** The bundle's folder: cache files are named by a script's path in it. */
  root: string;
  /** The folder of this bundle's cached code (code-cache-dir.ts), or undefined for none. */
  cacheDir?: string | undefined;
  /** Runs compiles, cache serialisation and first loads of Node's built-ins under V8's default flags. */
  withDefaultFlags?: FlagGuard;
  /** Packages bundled on their own, loaded when first required: name -> script path in `root` (scripts/bundle.js, LAZY_PACKAGES). */
  packages?: Readonly<Record<string, string>>;
}

interface Module {
  exports: unknown;
}

interface Compiled {
  script: Script;
  cacheFile: string;
  /** No cached code was given, or V8 rejected it: the cache should be written. */
  fresh: boolean;
}

const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
const WRAPPER_END = '\n})';

/**
 * Loads the bundle's CommonJS scripts (scripts/bundle.js) as Node's own loader would, compiled
 * through `vm.Script` so that V8's code cache can be kept between runs: a script compiled from
 * its cached code skips parsing and the lazy compiles of every function that ran when the cache
 * was made. Node 20 has no compile cache of its own (module.enableCompileCache is Node 22).
 * Reading or writing the cache never fails a run: a missing, unreadable or rejected cache file
 * means a compile from source, and a folder that cannot be written means no cache.
 */
export class ScriptLoader {
  private readonly modules = new Map<string, Module>();
  private readonly compiled: Compiled[] = [];
  private readonly builtins = new Map<string, unknown>();
  private readonly guard: FlagGuard;
  private readonly nodeRequire: NodeRequire;

  constructor(private readonly options: ScriptLoaderOptions) {
    this.guard = options.withDefaultFlags ?? ((fn) => fn());
    this.nodeRequire = createRequire(join(options.root, 'noop.js'));
  }

  /** The exports of the script at `file` (absolute), evaluating it on first use. Throws what the script throws. */
  load(file: string): unknown {
    const known = this.modules.get(file);
    if (known !== undefined) return known.exports;
    const module: Module = { exports: {} };
    this.modules.set(file, module);
    const source = `${WRAPPER_START}${readFileSync(file, 'utf8')}${WRAPPER_END}`;
    const script = this.compile(file, source);
    const dir = dirname(file);
    const require = (id: string): unknown => (id.startsWith('./') || id.startsWith('../') ? this.load(resolve(dir, id)) : this.external(id));
    const wrapper = script.runInThisContext() as (exports: unknown, require: unknown, module: Module, filename: string, dirname: string) => void;
    wrapper.call(module.exports, module.exports, require, module, file, dir);
    return module.exports;
  }

  /**
   * Writes the cached code of every script loaded so far, if any of them had none (or had it
   * rejected): a script's cache then holds every function this process ran, and the cache
   * converges on what the commands use. Each file is written to a temporary name and renamed.
   * Returns whether it tried to write; never throws.
   */
  saveCache(): boolean {
    const dir = this.options.cacheDir;
    if (dir === undefined || !this.compiled.some((entry) => entry.fresh)) return false;
    try {
      // Private, as tool's other cache folders: see mayUseCacheDir (code-cache-dir.ts).
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      return false;
    }
    for (const entry of this.compiled) {
      const target = join(dir, entry.cacheFile);
      const temporary = `${target}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        writeFileSync(temporary, this.guard(() => entry.script.createCachedData(), true), { mode: 0o600 });
        renameSync(temporary, target);
        entry.fresh = false;
      } catch {
        rmSync(temporary, { force: true });
      }
    }
    return true;
  }

  private compile(file: string, source: string): Script {
    const cacheFile = relative(this.options.root, file).split(sep).join('_');
    const cachedData = this.readCache(cacheFile);
    if (cachedData === undefined) {
      const script = new Script(source, { filename: file });
      if (this.options.cacheDir !== undefined) this.compiled.push({ script, cacheFile, fresh: true });
      return script;
    }
    const script = this.guard(() => new Script(source, { filename: file, cachedData }), true);
    this.compiled.push({ script, cacheFile, fresh: script.cachedDataRejected === true });
    return script;
  }

  private readCache(cacheFile: string): Buffer | undefined {
    if (this.options.cacheDir === undefined) return undefined;
    try {
      return readFileSync(join(this.options.cacheDir, cacheFile));
    } catch {
      return undefined;
    }
  }

  // A package bundled on its own is a script of the bundle. Node's built-ins (and anything else not
  // in the bundle) come from Node's own require; the first load of each runs under V8's default
  // flags so that Node's cached code for it is accepted.
  private external(id: string): unknown {
    const packages = this.options.packages;
    if (packages !== undefined && Object.hasOwn(packages, id)) return this.load(join(this.options.root, packages[id]!));
    if (this.builtins.has(id)) return this.builtins.get(id);
    const exports = this.guard(() => this.nodeRequire(id));
    this.builtins.set(id, exports);
    return exports;
  }
}
