/**
 * The bundle's script loader (src/bundle/script-loader.ts): CommonJS scripts load as Node would
 * load them, V8's code cache is written and read back, and a cache that is missing, damaged or
 * cannot be written never changes what the scripts do.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { ScriptLoader, type FlagGuard } from '../../../src/bundle/script-loader.js';

/** Checksums on, as the real guard does, so that a damaged cache is rejected; no memory flags in the test process. */
const verifying: FlagGuard = (fn, verify) => {
  if (verify) setFlagsFromString('--verify-snapshot-checksum');
  try {
    return fn();
  } finally {
    if (verify) setFlagsFromString('--no-verify-snapshot-checksum');
  }
};

let dir: string;
let bundle: string;
let cache: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'script-loader-'));
  bundle = join(dir, 'bundle');
  cache = join(dir, 'cache', 'code-cache', 'id-runtime');
  mkdirSync(join(bundle, 'chunks'), { recursive: true });
  writeFileSync(join(bundle, 'main.cjs'), [
    '"use strict";',
    'const shared = require("./chunks/shared.cjs");',
    'const { basename } = require("node:path");',
    'shared.count += 1;',
    'module.exports = { total: shared.add(2, 3), name: basename(__filename), dir: __dirname, again: require("./chunks/shared.cjs") === shared, strict: (function () { return this; })() === undefined };',
  ].join('\n'));
  writeFileSync(join(bundle, 'chunks', 'shared.cjs'), '"use strict";\nexports.count = 0;\nexports.add = (a, b) => a + b;\n');
});

afterEach(() => {
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
});

let copies = 0;
/** Loads a fresh copy of the bundle: V8 keeps compiled scripts per file name for the life of the process, and would not look at the cache. */
const load = (cacheDir: string | undefined = cache) => {
  const root = join(dir, `copy-${copies++}`);
  cpSync(bundle, root, { recursive: true });
  const loader = new ScriptLoader({ root, cacheDir, withDefaultFlags: verifying });
  return { loader, root, exports: loader.load(join(root, 'main.cjs')) };
};
const EXPECTED = { total: 5, name: 'main.cjs', again: true, strict: true };

describe('ScriptLoader', () => {
  it('loads CommonJS scripts with their own require, __filename and __dirname, each once', () => {
    const { exports, root } = load(undefined);
    expect(exports).toEqual({ ...EXPECTED, dir: root });
  });

  it('writes each script\'s cached code when it had none, and reads it back on the next load', () => {
    const first = load();
    expect(first.loader.saveCache()).toBe(true);
    expect(readdirSync(cache).sort()).toEqual(['chunks_shared.cjs', 'main.cjs']);
    const second = load();
    expect(second.exports).toEqual({ ...first.exports as object, dir: second.root });
    // Every script had an accepted cache: nothing to write.
    expect(second.loader.saveCache()).toBe(false);
  });

  it('rejects a damaged cache file, runs the script all the same and writes the cache again', () => {
    load().loader.saveCache();
    const file = join(cache, 'chunks_shared.cjs');
    const data = readFileSync(file);
    for (let i = 64; i < data.length; i += 7) data[i] = data[i]! ^ 0x5a;
    writeFileSync(file, data);
    const damaged = load();
    expect(damaged.exports).toMatchObject(EXPECTED);
    expect(damaged.loader.saveCache()).toBe(true);
    expect(load().loader.saveCache()).toBe(false);
  });

  it('ignores a cache file that is not V8\'s at all', () => {
    load().loader.saveCache();
    writeFileSync(join(cache, 'main.cjs'), 'not a code cache');
    expect(load().exports).toMatchObject(EXPECTED);
  });

  it('runs without a cache when its folder cannot be created or written', () => {
    writeFileSync(join(dir, 'cache'), 'a file where the folder should be');
    const blocked = load();
    expect(blocked.exports).toMatchObject(EXPECTED);
    expect(blocked.loader.saveCache()).toBe(false);

    rmSync(join(dir, 'cache'));
    mkdirSync(cache, { recursive: true });
    chmodSync(cache, 0o500);
    const readOnly = load();
    expect(readOnly.exports).toMatchObject(EXPECTED);
    expect(() => readOnly.loader.saveCache()).not.toThrow();
    chmodSync(cache, 0o700);
  });

  it('loads a package bundled on its own when a script first requires it by name', () => {
    writeFileSync(join(bundle, 'chunks', 'shared.cjs'), '"use strict";\nexports.count = 0;\nexports.add = (a, b) => require("lazy-package").sum(a, b);\n');
    mkdirSync(join(bundle, 'packages'));
    writeFileSync(join(bundle, 'packages', 'lazy.cjs'), 'exports.sum = (a, b) => a + b;\n');
    const root = join(dir, `copy-${copies++}`);
    cpSync(bundle, root, { recursive: true });
    const loader = new ScriptLoader({ root, cacheDir: cache, withDefaultFlags: verifying, packages: { 'lazy-package': 'packages/lazy.cjs' } });
    expect(loader.load(join(root, 'main.cjs'))).toMatchObject(EXPECTED);
    loader.saveCache();
    expect(readdirSync(cache)).toContain('packages_lazy.cjs');
  });

  it('throws what a script throws', () => {
    writeFileSync(join(bundle, 'chunks', 'shared.cjs'), 'throw new TypeError("broken chunk");\n');
    expect(() => load()).toThrow('broken chunk');
  });
});
