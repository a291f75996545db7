/** Where a direct call goes: absolute URLs as given, `<api>/<path>` appended to the API's base URL. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandUsageError } from '../../../src/errors/tool-error.js';
import { addApi } from '../../../src/config/add-api.js';
import { ConfigError } from '../../../src/config/errors.js';
import { configPaths } from '../../../src/config/paths.js';
import { createPipeline } from '../../../src/http/create-pipeline.js';
import { parseHeaderFlags } from '../../../src/request/parse-header-flags.js';
import { resolveTarget } from '../../../src/request/resolve-target.js';

const pipeline = createPipeline();
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tool-target-'));
  env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
  await addApi(configPaths(env), { name: 'shop', baseUrl: 'https://shop.example.com/api/v3/', headers: ['X-Tenant: acme'], force: false, cwd: dir });
  await addApi(configPaths(env), { name: 'plain', baseUrl: 'https://plain.example.com', headers: [], force: false, cwd: dir });
});
afterAll(async () => {
  pipeline.close();
  await rm(dir, { recursive: true, force: true });
});

const target = (text: string) => resolveTarget(text, { env, pipeline });

describe('resolveTarget', () => {
  it('keeps an absolute URL and attaches no auth hook', async () => {
    expect(await target('https://shop.example.com/api/v3/orders?x=1')).toEqual({ url: 'https://shop.example.com/api/v3/orders?x=1' });
  });

  it.each([
    ['shop/orders/9', 'https://shop.example.com/api/v3/orders/9'],
    ['shop//orders', 'https://shop.example.com/api/v3/orders'],
    ['shop/orders?status=open&x=a%20b', 'https://shop.example.com/api/v3/orders?status=open&x=a%20b'],
    ['shop', 'https://shop.example.com/api/v3'],
    ['shop/', 'https://shop.example.com/api/v3/'],
    ['shop?page=2', 'https://shop.example.com/api/v3?page=2'],
  ])('appends %s to the base URL, keeping its path', async (text, url) => {
    expect((await target(text)).url).toBe(url);
  });

  it("gives `<api>/<path>` the API's hook, limited to its origin; an API with no auth and no headers gets none", async () => {
    const shop = await target('shop/orders');
    expect(shop.api?.name).toBe('shop');
    expect(shop.auth?.origin).toBe('https://shop.example.com');
    const plain = await target('plain/x');
    expect(plain.api?.name).toBe('plain');
    expect(plain.auth).toBeUndefined();
  });

  it('refuses an unknown API with the command that registers it', async () => {
    const error = await target('ghost/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).hint).toBe('Add it first: tool api add ghost <base-url>');
  });

  it.each([
    ['example.com/x', 'For a URL, give the scheme: https://example.com/x'],
    ['localhost:8080/x', 'For a URL, give the scheme: https://localhost:8080/x'],
    ['/x', 'Give an absolute http(s) URL, or <api-name>/<path> for a registered API (see tool api list).'],
  ])('refuses %s as a usage error with a hint', async (text, hint) => {
    const error = await target(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandUsageError);
    expect((error as CommandUsageError).hint).toBe(hint);
  });

  it('refuses other URL schemes', async () => {
    await expect(target('ftp://example.com/x')).rejects.toThrow('only http and https URLs are supported');
  });
});

describe('parseHeaderFlags', () => {
  it('keeps the last value of a repeated name, whatever its case', () => {
    expect(parseHeaderFlags(['X-A: 1', 'Accept: text/plain', 'x-a:  2 '])).toEqual({ Accept: 'text/plain', 'x-a': '2' });
  });

  it('allows credential headers on the command line (unlike the registry)', () => {
    expect(parseHeaderFlags(['Authorization: Bearer t'])).toEqual({ Authorization: 'Bearer t' });
  });

  it.each(['no colon', ': empty name', 'Bad Name: x'])('refuses %j', (flag) => {
    expect(() => parseHeaderFlags([flag])).toThrow(CommandUsageError);
  });
});
