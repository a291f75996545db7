/** Where the bundle's code cache lives (src/bundle/code-cache-dir.ts), and how old folders go. */
import { describe, expect, it } from '@jest/globals';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheDir, mayUseCacheDir, pruneOtherCaches, toolCacheHome } from '../../../src/bundle/code-cache-dir.js';
import { configPaths } from '../../../src/config/paths.js';

const ENVS: Array<Record<string, string | undefined>> = [
  { HOME: '/home/ada' },
  { HOME: '/home/ada', XDG_CACHE_HOME: '/var/cache/ada' },
  { HOME: '/home/ada', XDG_CACHE_HOME: 'relative/ignored' },
  { HOME: '/home/ada', XDG_CACHE_HOME: '' },
  { XDG_CACHE_HOME: '/var/cache/ada' },
];

describe('codeCacheDir', () => {
  it('lives in tool\'s cache folder, as configPaths names it', () => {
    for (const env of ENVS) {
      expect(toolCacheHome(env)).toBe(configPaths({ XDG_CONFIG_HOME: '/cfg', ...env }).cacheDir);
      expect(codeCacheDir(env, 'b1', 'node')).toMatch(new RegExp(`^${configPaths({ XDG_CONFIG_HOME: '/cfg', ...env }).cacheDir}/code-cache/b1-[0-9a-f]{8}$`));
    }
  });

  it('is a folder per bundle and per runtime (Node, platform, flags)', () => {
    const env = { HOME: '/home/ada' };
    const dirs = new Set([codeCacheDir(env, 'b1', 'v20.1\n--x'), codeCacheDir(env, 'b1', 'v20.1\n--y'), codeCacheDir(env, 'b2', 'v20.1\n--x')]);
    expect(dirs.size).toBe(3);
    expect(codeCacheDir(env, 'b1', 'v20.1\n--x')).toBe(codeCacheDir(env, 'b1', 'v20.1\n--x'));
  });

  it('is off with TOOL_CODE_CACHE=0, false or off, and without an absolute HOME or XDG_CACHE_HOME', () => {
    for (const value of ['0', 'false', 'off', 'OFF']) expect(codeCacheDir({ HOME: '/home/ada', TOOL_CODE_CACHE: value }, 'b1', 'node')).toBeUndefined();
    expect(codeCacheDir({ HOME: '/home/ada', TOOL_CODE_CACHE: '1' }, 'b1', 'node')).toBeDefined();
    expect(codeCacheDir({}, 'b1', 'node')).toBeUndefined();
    expect(codeCacheDir({ HOME: 'relative' }, 'b1', 'node')).toBeUndefined();
  });
});

describe('pruneOtherCaches', () => {
  it('keeps the newest other folders and removes the rest', () => {
    const parent = mkdtempSync(join(tmpdir(), 'code-cache-'));
    try {
      const names = ['a', 'b', 'c', 'd', 'e', 'current'];
      names.forEach((name, i) => {
        mkdirSync(join(parent, name));
        utimesSync(join(parent, name), 1000 + i, 1000 + i);
      });
      pruneOtherCaches(join(parent, 'current'), 2);
      expect(readdirSync(parent).sort()).toEqual(['current', 'd', 'e']);
      expect(() => pruneOtherCaches(join(parent, 'missing', 'current'))).not.toThrow();
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('mayUseCacheDir', () => {
  const uid = process.getuid?.();

  (uid === undefined ? it.skip : it)('trusts only folders of this user that no one else can write', () => {
    const home = mkdtempSync(join(tmpdir(), 'code-cache-trust-'));
    try {
      const dir = join(home, 'code-cache', 'id-runtime');
      expect(mayUseCacheDir(dir, uid)).toBe(true);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      expect(mayUseCacheDir(dir, uid)).toBe(true);
      expect(mayUseCacheDir(dir, uid! + 1)).toBe(false);
      chmodSync(dir, 0o777);
      expect(mayUseCacheDir(dir, uid)).toBe(false);
      chmodSync(dir, 0o700);
      chmodSync(join(home, 'code-cache'), 0o775);
      expect(mayUseCacheDir(dir, uid)).toBe(false);
      expect(mayUseCacheDir(dir, undefined)).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
