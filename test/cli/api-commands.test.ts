import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { tempHome, tool, type Home } from './auth-harness.js';

describe('tool api add, list, show, remove', () => {
  let home: Home;
  beforeEach(async () => {
    home = await tempHome();
  });
  afterEach(async () => {
    await home.remove();
  });
  const run = (...argv: string[]) => tool(argv, { env: home.env, cwd: home.dir });

  it('adds an API and lists it in a table on stdout', async () => {
    const added = await run('api', 'add', 'petstore', 'https://petstore.example.com/v3/');
    expect(added).toMatchObject({ code: 0, stdout: '' });
    expect(added.stderr).toContain('Added API petstore (https://petstore.example.com/v3)');
    const listed = await run('api', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^NAME\s+BASE URL\s+AUTH\s+SPEC$/);
    expect(listed.stdout).toMatch(/^petstore\s+https:\/\/petstore\.example\.com\/v3\s+-\s+-$/m);
  });

  it('lists APIs as a JSON array with --output json', async () => {
    await run('api', 'add', 'a', 'http://127.0.0.1:8080', '--header', 'X-Tenant: acme');
    await run('api', 'add', 'b', 'https://b.example.com/api');
    const listed = await run('api', 'list', '--output', 'json');
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'a', baseUrl: 'http://127.0.0.1:8080', spec: null, headers: { 'X-Tenant': 'acme' }, auth: null },
      { name: 'b', baseUrl: 'https://b.example.com/api', spec: null, headers: {}, auth: null },
    ]);
  });

  it('prints an empty JSON array and a hint when nothing is registered', async () => {
    expect(JSON.parse((await run('api', 'list', '--output', 'json')).stdout)).toEqual([]);
    const table = await run('api', 'list');
    expect(table.stdout).toBe('');
    expect(table.stderr).toContain('tool api add <name> <base-url>');
  });

  it('stores a relative --spec path as an absolute path', async () => {
    await writeFile(join(home.dir, 'pets.yaml'), 'openapi: 3.1.0\n');
    await run('api', 'add', 'pets', 'https://pets.example.com', '--spec', 'pets.yaml');
    const shown = await run('api', 'show', 'pets', '--output', 'json');
    expect(JSON.parse(shown.stdout).spec).toBe(join(home.dir, 'pets.yaml'));
  });

  it('keeps an http(s) --spec URL as a URL', async () => {
    await run('api', 'add', 'pets', 'https://pets.example.com', '--spec', 'https://pets.example.com/openapi.json');
    expect(JSON.parse((await run('api', 'show', 'pets', '--output', 'json')).stdout).spec).toBe('https://pets.example.com/openapi.json');
  });

  it('refuses a --spec file that does not exist', async () => {
    const result = await run('api', 'add', 'pets', 'https://pets.example.com', '--spec', 'missing.yaml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--spec ${join(home.dir, 'missing.yaml')} is not a file`);
  });

  it('shows one API as text', async () => {
    await run('api', 'add', 'pets', 'https://pets.example.com', '--header', 'X-Tenant: acme', '--header', 'Accept-Language: en');
    const shown = await run('api', 'show', 'pets');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(
      'name:      pets\nbase URL:  https://pets.example.com\nspec:      -\nheaders:   X-Tenant: acme\n           Accept-Language: en\nauth:      none\n',
    );
  });

  it('refuses to add an existing name without --force (exit 2) and replaces it with --force', async () => {
    await run('api', 'add', 'pets', 'https://pets.example.com');
    const again = await run('api', 'add', 'pets', 'https://other.example.com');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('an API named "pets" is already registered (https://pets.example.com)');
    expect(again.stderr).toContain('--force');
    const forced = await run('api', 'add', 'pets', 'https://other.example.com', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('Replaced API pets');
    expect(JSON.parse((await run('api', 'show', 'pets', '--output', 'json')).stdout).baseUrl).toBe('https://other.example.com');
  });

  it.each([
    ['9lives', 'is not a valid API name'],
    ['has/slash', 'is not a valid API name'],
    ['a'.repeat(65), 'is not a valid API name'],
    ['', 'is not a valid API name'],
  ])('refuses the API name %j', async (name, message) => {
    const result = await run('api', 'add', name, 'https://x.example.com');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('starts with a letter');
  });

  it.each([
    ['ftp://files.example.com', 'must use http, https, mqtt, mqtts, ws or wss, not ftp'],
    ['https://user:hunter2@x.example.com', 'must not contain a user name or password'],
    ['https://x.example.com/v1?key=1', 'must not have a query string or fragment'],
    ['https://x.example.com/v1#top', 'must not have a query string or fragment'],
    ['x.example.com', 'is not an absolute URL'],
  ])('refuses the base URL %s', async (url, message) => {
    const result = await run('api', 'add', 'x', url);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('hunter2');
  });

  it.each([
    ['NoColon', 'is not "Name: value"'],
    ['Bad Name: x', 'is not "Name: value"'],
    ['Authorization: Bearer abc', 'carries credentials and is not kept in the registry'],
  ])('refuses the header %j', async (header, message) => {
    const result = await run('api', 'add', 'x', 'https://x.example.com', '--header', header);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('removes an API with its credentials and tokens', async () => {
    await run('api', 'add', 'pets', 'https://pets.example.com');
    await tool(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], { env: home.env, stdin: 's3cret-token\n' });
    await mkdir(home.cacheDir, { recursive: true });
    await writeFile(join(home.cacheDir, 'tokens.json'), JSON.stringify({ version: 1, tokens: { pets: { accessToken: 'at' } } }));
    const removed = await run('api', 'remove', 'pets');
    expect(removed.code).toBe(0);
    expect(JSON.parse(await readFile(join(home.configDir, 'apis.json'), 'utf8'))).toEqual({ version: 1, apis: {} });
    expect(JSON.parse(await readFile(join(home.configDir, 'credentials.json'), 'utf8'))).toEqual({ version: 1, credentials: {} });
    expect(JSON.parse(await readFile(join(home.cacheDir, 'tokens.json'), 'utf8'))).toEqual({ version: 1, tokens: {} });
  });

  it('reports an unknown API for show and remove with the fix-it command (exit 2)', async () => {
    for (const command of ['show', 'remove']) {
      const result = await run('api', command, 'ghost');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('no API named "ghost" is registered');
      expect(result.stderr).toContain('tool api add ghost <base-url>');
    }
  });

  it('writes apis.json with mode 0600 in a 0700 directory', async () => {
    await run('api', 'add', 'pets', 'https://pets.example.com');
    expect((await stat(join(home.configDir, 'apis.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(home.configDir)).mode & 0o777).toBe(0o700);
  });

  it('lists the api subcommands with `tool api`', async () => {
    const help = await run('api');
    expect(help.code).toBe(0);
    for (const sub of ['add', 'list', 'show', 'remove']) expect(help.stdout).toContain(`tool api ${sub}`);
  });
});
