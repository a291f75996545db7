import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiRegistry } from '../../../src/config/api-registry.js';
import { credentialStore } from '../../../src/config/credential-store.js';
import { ConfigError } from '../../../src/config/errors.js';
import { configPaths, type ConfigPaths } from '../../../src/config/paths.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/config');

describe('configuration files', () => {
  let dir: string;
  let paths: ConfigPaths;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-config-'));
    paths = configPaths({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const place = async (fixture: string, target: string): Promise<string> => {
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(FIXTURES, fixture), target);
    return readFile(target, 'utf8');
  };
  const failure = async (work: Promise<unknown>): Promise<ConfigError> => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  };

  it('reads a missing registry as empty and does not create it', async () => {
    expect((await apiRegistry(paths).read()).size).toBe(0);
    await expect(stat(paths.apisFile)).rejects.toThrow();
  });

  it('names the file, line and column of a JSON syntax error, shows the line, and exits 2', async () => {
    await place('trailing-comma.json', paths.apisFile);
    const error = await failure(apiRegistry(paths).read());
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(exitCodeFor(error.kind)).toBe(2);
    expect(error.message).toBe(`${paths.apisFile}:5:3: not valid JSON: unexpected "}"; expected a "quoted" property name`);
    expect(error.hint).toContain('5 |   }');
    expect(error.hint).toContain('The file was left untouched');
  });

  it('never overwrites a broken file when a later change is attempted', async () => {
    const before = await place('trailing-comma.json', paths.apisFile);
    await failure(
      apiRegistry(paths).update((apis) => {
        apis.clear();
      }),
    );
    expect(await readFile(paths.apisFile, 'utf8')).toBe(before);
  });

  it('refuses a file format version it does not know', async () => {
    await place('future-version.json', paths.apisFile);
    const error = await failure(apiRegistry(paths).read());
    expect(error.code).toBe('CONFIG_VERSION');
    expect(error.message).toBe(`${paths.apisFile}:2:14: file format version 2 is not one this tool understands (it reads version 1)`);
    expect(error.hint).toContain('upgrade tool');
  });

  it('points at the line of a bad field with its JSON pointer', async () => {
    await place('bad-base-url.json', paths.apisFile);
    const error = await failure(apiRegistry(paths).read());
    expect(error.code).toBe('CONFIG_SHAPE');
    expect(error.message).toBe(`${paths.apisFile}:5:18: /apis/pets/baseUrl: the base URL must use http, https, mqtt, mqtts, ws or wss, not ftp`);
  });

  it('rejects an unknown api-key location in a hand-edited registry', async () => {
    await place('bad-key-location.json', paths.apisFile);
    const error = await failure(apiRegistry(paths).read());
    expect(error.message).toBe(`${paths.apisFile}:6:62: /apis/pets/auth/in must be one of header, query, cookie`);
  });

  it('shows no excerpt of a broken credentials file, so no secret is printed', async () => {
    await place('broken-credentials.json', paths.credentialsFile);
    const error = await failure(credentialStore(paths).read());
    expect(error.message).toBe(`${paths.credentialsFile}:4:44: not valid JSON: unexpected "}"; expected a "quoted" property name`);
    expect(`${error.message}\n${error.hint}`).not.toContain('do-not-print-me');
  });

  it('writes atomically with mode 0600 in a 0700 directory and leaves no temporary file', async () => {
    await credentialStore(paths).update((entries) => {
      entries.set('pets', { secret: 'abc' });
    });
    expect((await stat(paths.credentialsFile)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.configDir)).mode & 0o777).toBe(0o700);
    expect(await readdir(paths.configDir)).toEqual(['credentials.json']);
    expect(JSON.parse(await readFile(paths.credentialsFile, 'utf8'))).toEqual({ version: 1, credentials: { pets: { secret: 'abc' } } });
  });

  it('does not create a file only to record that nothing is in it', async () => {
    await credentialStore(paths).update((entries) => {
      entries.delete('pets');
    });
    await expect(stat(paths.credentialsFile)).rejects.toThrow();
  });
});

describe('configPaths', () => {
  it('uses XDG_CONFIG_HOME and XDG_CACHE_HOME', () => {
    const paths = configPaths({ XDG_CONFIG_HOME: '/x/conf', XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' });
    expect(paths).toEqual({
      configDir: '/x/conf/tool',
      cacheDir: '/x/cache/tool',
      apisFile: '/x/conf/tool/apis.json',
      credentialsFile: '/x/conf/tool/credentials.json',
      tokensFile: '/x/cache/tool/tokens.json',
    });
  });

  it('falls back to ~/.config and ~/.cache, ignoring relative XDG paths', () => {
    const paths = configPaths({ XDG_CONFIG_HOME: 'relative/conf', HOME: '/home/u' });
    expect(paths.apisFile).toBe('/home/u/.config/tool/apis.json');
    expect(paths.tokensFile).toBe('/home/u/.cache/tool/tokens.json');
  });

  it('throws a configuration error when neither XDG nor HOME is set', () => {
    expect(() => configPaths({})).toThrow(/neither XDG_CONFIG_HOME nor HOME/);
  });
});
