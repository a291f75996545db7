/**
 * The real binary keeps V8's code cache for the bundle in $XDG_CACHE_HOME/tool/code-cache
 * (src/bundle/): the first command writes it, the next ones read it, and a cache that is off,
 * damaged or cannot be written never changes what a command prints or its exit code.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './helpers/build.js';
import { runTool } from './helpers/run-tool.js';
import { VERSION } from '../../src/version.js';

let home: string;
const codeCache = () => join(home, 'cache', 'tool', 'code-cache');
/** The cache files of the one bundle folder, name -> bytes. */
function cacheFiles(): Map<string, Buffer> {
  const [folder, ...others] = readdirSync(codeCache());
  expect(others).toEqual([]);
  const dir = join(codeCache(), folder!);
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}
const version = async (env: Record<string, string> = {}) => {
  const result = await runTool(['--version'], { cwd: home, env });
  expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
};

beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'code-cache-e2e-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('the code cache of the real binary', () => {
  it('is written by the first command and read, unchanged, by the next', async () => {
    await version();
    const written = cacheFiles();
    expect([...written.keys()]).toContain('main.cjs');
    await version();
    expect(cacheFiles()).toEqual(written);
  });

  it('is not written with TOOL_CODE_CACHE=0', async () => {
    await version({ TOOL_CODE_CACHE: '0' });
    expect(existsSync(codeCache())).toBe(false);
  });

  it('is rewritten when its files are damaged, and the command runs as before', async () => {
    await version();
    const dir = join(codeCache(), readdirSync(codeCache())[0]!);
    for (const name of readdirSync(dir)) {
      const data = readFileSync(join(dir, name));
      for (let i = 64; i < data.length; i += 5) data[i] = data[i]! ^ 0xff;
      writeFileSync(join(dir, name), data);
    }
    const damaged = cacheFiles();
    await version();
    const rewritten = cacheFiles();
    for (const [name, data] of damaged) expect(rewritten.get(name)?.equals(data)).toBe(false);
    await version();
  });

  it('is skipped when its folder cannot be made', async () => {
    mkdirSync(join(home, 'cache'));
    writeFileSync(join(home, 'cache', 'tool'), 'a file where the folder should be');
    await version();
    await version();
  });
});
