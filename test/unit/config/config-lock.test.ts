import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiRegistry } from '../../../src/config/api-registry.js';
import { lockPathOf, withConfigLock } from '../../../src/config/config-lock.js';
import { ConfigError } from '../../../src/config/errors.js';
import { configPaths, type ConfigPaths } from '../../../src/config/paths.js';
import { tokenStore } from '../../../src/config/token-store.js';
import { writeFileAtomic } from '../../../src/config/write-file-atomic.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('the configuration lock', () => {
  let dir: string;
  let paths: ConfigPaths;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-lock-'));
    paths = configPaths({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') });
  });
  afterEach(async () => {
    await chmod(join(dir, 'config', 'tool'), 0o700).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('runs one holder at a time', async () => {
    const events: string[] = [];
    const hold = (name: string) =>
      withConfigLock(paths, async () => {
        events.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        events.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]?.replace('in', 'out'));
  });

  it('keeps every token of 8 concurrent updates of tokens.json', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => tokenStore(paths).update((tokens) => void tokens.set(`api${i}`, { accessToken: `t${i}` }))));
    expect([...(await tokenStore(paths).read()).keys()].sort()).toEqual(['api0', 'api1', 'api2', 'api3', 'api4', 'api5', 'api6', 'api7']);
  });

  it('gives up with CONFIG_LOCKED, naming the lock, when another process keeps it', async () => {
    await mkdir(lockPathOf(paths), { recursive: true });
    const error = (await withConfigLock(paths, async () => 'ran', { timing: { waitMs: 300, staleMs: 10_000 } }).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('CONFIG_LOCKED');
    expect(error.message).toContain(lockPathOf(paths));
  });

  it('refuses a read-only (0500) config folder and leaves its mode alone', async () => {
    await mkdir(paths.configDir, { recursive: true, mode: 0o500 });
    await chmod(paths.configDir, 0o500);
    const error = (await apiRegistry(paths).update((apis) => void apis.clear()).catch((e: unknown) => e)) as ConfigError;
    expect([error.code, exitCodeFor(error.kind)]).toEqual(['CONFIG_READ_ONLY', 2]);
    expect(error.message).toContain(paths.configDir);
    expect(error.hint).toContain(`chmod u+w ${paths.configDir}`);
    expect(await modeOf(paths.configDir)).toBe(0o500);
  });

  it('refuses a 0400 file instead of replacing it with a 0600 one', async () => {
    await tokenStore(paths).update((tokens) => void tokens.set('a', { accessToken: 'kept' }));
    await chmod(paths.tokensFile, 0o400);
    const before = await readFile(paths.tokensFile, 'utf8');
    const error = (await tokenStore(paths).update((tokens) => void tokens.set('b', { accessToken: 'new' })).catch((e: unknown) => e)) as ConfigError;
    expect(error.code).toBe('CONFIG_READ_ONLY');
    expect(error.message).toContain(paths.tokensFile);
    expect(await modeOf(paths.tokensFile)).toBe(0o400);
    expect(await readFile(paths.tokensFile, 'utf8')).toBe(before);
  });

  it('narrows a folder it writes into to 0700 but never gives back a write bit the user removed', async () => {
    const wide = join(dir, 'wide');
    const readOnly = join(dir, 'read-only');
    await mkdir(wide, { mode: 0o755 });
    await chmod(wide, 0o755);
    await mkdir(readOnly);
    await chmod(readOnly, 0o500);
    await writeFileAtomic(join(wide, 'f'), 'x', { mode: 0o600, dirMode: 0o700 });
    // Root writes into a 0500 folder anyway; the point is that the folder stays 0500.
    await writeFileAtomic(join(readOnly, 'f'), 'x', { mode: 0o600, dirMode: 0o700 }).catch(() => undefined);
    expect([await modeOf(wide), await modeOf(readOnly)]).toEqual([0o700, 0o500]);
    await chmod(readOnly, 0o700);
  });

  it('leaves no lock behind once the change is written', async () => {
    await apiRegistry(paths).update((apis) => void apis.set('a', { name: 'a', baseUrl: 'https://a.example.com', headers: {} }));
    await expect(stat(lockPathOf(paths))).rejects.toThrow();
  });
});
