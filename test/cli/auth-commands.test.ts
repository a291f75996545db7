import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFile, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { loadApiLookup } from '../../src/plan/api-lookup.js';
import { createPipeline } from '../../src/http/create-pipeline.js';
import { sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from '../unit/auth/oauth-server.js';
import { fakeTerminal, tempHome, tool, type Home, type Outcome } from './auth-harness.js';

/** Every secret used below; none may appear in any stdout or stderr. */
const SECRETS = ['tok-Secret-1', 'pw-Secret-2', 'key-Secret-3', 'client-s3cret', 'env-Secret-4', 'tty-Secret-5', 'at-1', 'rt-1'];

describe('tool auth', () => {
  let home: Home;
  let api: TestServer;
  let oauth: OAuthServer | undefined;
  let outputs: Outcome[];
  beforeEach(async () => {
    home = await tempHome();
    outputs = [];
    api = await startServer((hit, res) => sendJson(res, 200, { ok: true, url: hit.url }));
  });
  afterEach(async () => {
    await api.close();
    await oauth?.close();
    oauth = undefined;
    await home.remove();
    // Checked after the cleanup so a leak fails the test without leaving servers open.
    const leaks = outputs.flatMap((output) => SECRETS.filter((secret) => output.stdout.includes(secret) || output.stderr.includes(secret)));
    expect(leaks).toEqual([]);
  });
  const run = async (argv: string[], stdin?: string | Readable, env: Record<string, string> = {}, onStderr?: (text: string) => void): Promise<Outcome> => {
    const outcome = await tool(argv, { env: { ...home.env, ...env }, ...(stdin !== undefined ? { stdin } : {}), ...(onStderr ? { onStderr } : {}) });
    outputs.push(outcome);
    return outcome;
  };
  const addApi = () => run(['api', 'add', 'pets', `${api.origin}/v1`]);
  /** Sends one request with the registry's hook for `pets`, as `arazzo run` would. */
  const callPets = async (env: Record<string, string> = {}, path = '/v1/pets') => {
    const pipeline = createPipeline({ retry: 0 });
    try {
      const lookup = await loadApiLookup({ env: { ...home.env, ...env }, pipeline });
      const pets = lookup.get('pets');
      return await pipeline.send({ method: 'GET', url: `${pets!.baseUrl.replace(/\/v1$/, '')}${path}`, headers: {}, ...(pets?.auth ? { auth: pets.auth } : {}) });
    } finally {
      pipeline.close();
    }
  };
  const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

  it('logs in with a bearer token from stdin and uses it for requests', async () => {
    await addApi();
    const login = await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], 'tok-Secret-1\n');
    expect(login).toMatchObject({ code: 0, stdout: '' });
    expect(login.stderr).toContain('Logged in to pets (bearer token).');
    expect(login.stderr).toContain(`stored in ${join(home.configDir, 'credentials.json')} (mode 0600)`);
    expect(await readJson(join(home.configDir, 'credentials.json'))).toEqual({ version: 1, credentials: { pets: { secret: 'tok-Secret-1', origin: api.origin } } });
    expect((await stat(join(home.configDir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toEqual({ type: 'bearer' });
    await callPets();
    expect(api.hits[0]?.headers.authorization).toBe('Bearer tok-Secret-1');
  });

  it('logs in with basic credentials', async () => {
    await addApi();
    const login = await run(['auth', 'login', 'pets', '--type', 'basic', '--username', 'alice', '--password-stdin'], 'pw-Secret-2');
    expect(login.code).toBe(0);
    await callPets();
    expect(api.hits[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alice:pw-Secret-2').toString('base64')}`);
  });

  it('logs in with an API key in the query', async () => {
    await addApi();
    expect((await run(['auth', 'login', 'pets', '--type', 'api-key', '--key-name', 'api_key', '--in', 'query', '--with-token'], 'key-Secret-3')).code).toBe(0);
    await callPets({}, '/v1/pets?limit=2');
    expect(api.hits[0]?.url).toBe('/v1/pets?limit=2&api_key=key-Secret-3');
  });

  it('stores only the variable name with --token-env and reads the value at request time', async () => {
    await addApi();
    const login = await run(['auth', 'login', 'pets', '--type', 'bearer', '--token-env', 'PETS_TOKEN']);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('Note: PETS_TOKEN is not set now');
    expect(login.stderr).toContain('read from $PETS_TOKEN at each run');
    expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toEqual({ type: 'bearer', secretEnv: 'PETS_TOKEN' });
    await expect(stat(join(home.configDir, 'credentials.json'))).rejects.toThrow();
    await callPets({ PETS_TOKEN: 'env-Secret-4' });
    expect(api.hits[0]?.headers.authorization).toBe('Bearer env-Secret-4');
    const status = await run(['auth', 'status', 'pets', '--output', 'json'], undefined, { PETS_TOKEN: 'env-Secret-4' });
    expect(JSON.parse(status.stdout)).toEqual({ name: 'pets', type: 'bearer', description: 'bearer token', secret: { source: 'env', env: 'PETS_TOKEN', present: true } });
  });

  it.each([
    [['--with-token'], 'missing --type (one of bearer, basic, api-key, oauth2-client-credentials, oauth2-authorization-code, oauth2-device-code)'],
    [['--type', 'bearer'], 'missing --with-token (the token on stdin) or --token-env VARNAME'],
    [['--type', 'basic', '--password-stdin'], 'missing --username (required with --type basic)'],
    [['--type', 'api-key', '--with-token'], 'missing --key-name (required with --type api-key)'],
    [['--type', 'oauth2-client-credentials', '--client-id', 'x', '--client-secret-stdin'], 'missing --token-url (required with --type oauth2-client-credentials)'],
    [['--type', 'oauth2-device-code', '--token-url', 'https://a.example.com/t', '--client-id', 'x'], 'missing --device-url (required with --type oauth2-device-code)'],
    [['--type', 'bearer', '--with-token', '--username', 'bob'], '--username does not apply to --type bearer'],
    [['--type', 'bearer', '--with-token', '--token-env', 'X'], 'give --with-token or --token-env, not both'],
    [['--type', 'magic'], '--type must be one of bearer, basic'],
    [['--type', 'api-key', '--key-name', 'k', '--in', 'body', '--with-token'], '--in must be one of header, query, cookie'],
    [['--type', 'oauth2-client-credentials', '--token-url', 'http://auth.example.com/token', '--client-id', 'x', '--client-secret-env', 'S'], '--token-url must use https'],
  ])('refuses %j without a terminal (exit 2, naming the flag)', async (flags, message) => {
    await addApi();
    const result = await run(['auth', 'login', 'pets', ...flags], 'tok-Secret-1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    await expect(stat(join(home.configDir, 'credentials.json'))).rejects.toThrow();
  });

  it('lists the auth subcommands with `tool auth`', async () => {
    const help = await run(['auth']);
    expect(help.code).toBe(0);
    for (const sub of ['login', 'logout', 'status']) expect(help.stdout).toContain(`tool auth ${sub}`);
  });

  it('refuses to log in to an API that is not registered', async () => {
    const result = await run(['auth', 'login', 'ghost', '--type', 'bearer', '--with-token'], 'tok-Secret-1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no API named "ghost" is registered');
    expect(result.stderr).toContain('tool api add ghost <base-url>');
  });

  it('refuses an empty token on stdin', async () => {
    await addApi();
    const result = await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], '\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--with-token: nothing was read from stdin');
  });

  it('asks on a terminal for what is missing, reading the secret without echo', async () => {
    await addApi();
    const terminal = fakeTerminal();
    terminal.type('1\r');
    terminal.type('tty-Secret-5\r');
    const login = await run(['auth', 'login', 'pets'], terminal);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('Choose 1-6: 1');
    expect(login.stderr).toContain('Paste the token (input is hidden): \n');
    expect(terminal.rawModes).toEqual([true, false, true, false]);
    expect((await readJson(join(home.configDir, 'credentials.json'))).credentials.pets.secret).toBe('tty-Secret-5');
  });

  it('cancels a terminal login on Ctrl-C with exit 130 and stores nothing', async () => {
    await addApi();
    const terminal = fakeTerminal();
    terminal.type('tty-Sec\u0003');
    const login = await run(['auth', 'login', 'pets', '--type', 'bearer'], terminal);
    expect(login.code).toBe(130);
    expect(login.stderr).toContain('login cancelled');
    await expect(stat(join(home.configDir, 'credentials.json'))).rejects.toThrow();
  });

  describe('with an OAuth 2.0 server', () => {
    const startOAuth = async (options: OAuthServerOptions = {}) => {
      oauth = await startOAuthServer(options);
      await api.close();
      api = await startServer((hit, res) => {
        const ok = oauth!.valid.has((hit.headers.authorization ?? '').replace(/^Bearer /, ''));
        sendJson(res, ok ? 200 : 401, { ok });
      });
      await addApi();
    };

    it('verifies client credentials at login and reuses the token in later runs', async () => {
      await startOAuth();
      const login = await run(
        ['auth', 'login', 'pets', '--type', 'oauth2-client-credentials', '--token-url', oauth!.tokenUrl, '--client-id', 'tool-client', '--client-secret-stdin', '--scope', 'pets:read'],
        'client-s3cret',
      );
      expect(login.code).toBe(0);
      expect(login.stderr).toContain('Access token cached until');
      expect((await stat(join(home.cacheDir, 'tokens.json'))).mode & 0o777).toBe(0o600);
      expect((await callPets()).status).toBe(200);
      expect((await callPets()).status).toBe(200);
      expect(oauth!.grants).toEqual(['client_credentials']);
      const status = await run(['auth', 'status']);
      expect(status.stdout).toMatch(/^pets: oauth2 client credentials\n {2}secret: stored in credentials.json\n {2}refresh token: none\n {2}access token: valid until \S+ \(in 60 min\)\n$/);
    });

    it('stores nothing when the token endpoint refuses the client secret (exit 1)', async () => {
      await startOAuth({ clientSecret: 'another' });
      const login = await run(['auth', 'login', 'pets', '--type', 'oauth2-client-credentials', '--token-url', oauth!.tokenUrl, '--client-id', 'tool-client', '--client-secret-stdin'], 'client-s3cret');
      expect(login.code).toBe(1);
      expect(login.stderr).toContain('answered invalid_client (HTTP 401)');
      await expect(stat(join(home.configDir, 'credentials.json'))).rejects.toThrow();
      expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toBeUndefined();
    });

    it('logs in with the device code flow and stores the refresh token', async () => {
      await startOAuth({ approveAtPoll: 2, interval: 0 });
      const login = await run(['auth', 'login', 'pets', '--type', 'oauth2-device-code', '--device-url', oauth!.deviceUrl, '--token-url', oauth!.tokenUrl, '--client-id', 'tool-client']);
      expect(login.code).toBe(0);
      expect(login.stderr).toContain('enter the code: WDJB-MJHT');
      expect((await readJson(join(home.configDir, 'credentials.json'))).credentials.pets).toEqual({ refreshToken: 'rt-1', origin: api.origin });
      expect((await callPets()).status).toBe(200);
      expect(oauth!.grants).toHaveLength(2);
    });

    it('logs in with the authorization code flow driven through the loopback redirect', async () => {
      await startOAuth();
      let browsing: Promise<void> | undefined;
      const browse = (url: string) =>
        new Promise<void>((resolve, reject) => {
          request(url, (res) => {
            res.resume();
            const next = res.headers.location;
            res.on('end', () => (next ? browse(next).then(resolve, reject) : resolve()));
          })
            .on('error', reject)
            .end();
        });
      const login = await run(
        ['auth', 'login', 'pets', '--type', 'oauth2-authorization-code', '--authorize-url', oauth!.authorizeUrl, '--token-url', oauth!.tokenUrl, '--client-id', 'tool-client', '--no-browser'],
        undefined,
        {},
        (text) => {
          const match = /^ {2}(http\S+)$/m.exec(text);
          if (match && browsing === undefined) browsing = browse(match[1]!);
        },
      );
      await browsing;
      expect(login.code).toBe(0);
      expect(login.stderr).toContain('Logged in to pets (oauth2 authorization code).');
      expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toEqual({
        type: 'oauth2-authorization-code',
        authorizeUrl: oauth!.authorizeUrl,
        tokenUrl: oauth!.tokenUrl,
        clientId: 'tool-client',
        scopes: [],
      });
      expect((await callPets()).status).toBe(200);
    });
  });

  it('logs out: secret, tokens and scheme are removed', async () => {
    await addApi();
    await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], 'tok-Secret-1');
    const logout = await run(['auth', 'logout', 'pets']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain('Logged out of pets');
    expect(await readJson(join(home.configDir, 'credentials.json'))).toEqual({ version: 1, credentials: {} });
    expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets).toEqual({ baseUrl: `${api.origin}/v1` });
    await callPets();
    expect(api.hits[0]?.headers.authorization).toBeUndefined();
  });

  it('reports the status of every API without showing secrets', async () => {
    await addApi();
    await run(['api', 'add', 'other', 'https://other.example.com']);
    await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], 'tok-Secret-1');
    const status = await run(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toBe('pets: bearer token\n  secret: stored in credentials.json\nother: no auth configured\n  log in: tool auth login other\n');
    const json = JSON.parse((await run(['auth', 'status', '--output', 'json'])).stdout);
    expect(json.map((s: { name: string; secret: unknown }) => [s.name, s.secret])).toEqual([
      ['pets', { source: 'credentials', present: true }],
      ['other', { source: 'none', present: false }],
    ]);
  });

  it('drops the credentials when --force moves an API to another origin', async () => {
    await addApi();
    await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], 'tok-Secret-1');
    const sameOrigin = await run(['api', 'add', 'pets', `${api.origin}/v2`, '--force']);
    expect(sameOrigin.code).toBe(0);
    expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toEqual({ type: 'bearer' });
    const moved = await run(['api', 'add', 'pets', 'https://elsewhere.example.com', '--force']);
    expect(moved.stderr).toContain('The origin changed, so its stored credentials were removed.');
    expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toBeUndefined();
    expect((await readJson(join(home.configDir, 'credentials.json'))).credentials).toEqual({});
  });

  it('leaves a corrupt credentials file untouched and says where it is broken', async () => {
    await addApi();
    await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], 'tok-Secret-1');
    const file = join(home.configDir, 'credentials.json');
    const { writeFile } = await import('node:fs/promises');
    const broken = '{\n  "version": 1,\n  "credentials": { "pets": { "secret": "tok-Secret-1" }\n';
    await writeFile(file, broken);
    for (const argv of [['auth', 'logout', 'pets'], ['api', 'remove', 'pets'], ['auth', 'status']]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${file}:4:1: not valid JSON`);
      expect(result.stderr).toContain('The file was left untouched');
    }
    expect(await readFile(file, 'utf8')).toBe(broken);
    expect((await readJson(join(home.configDir, 'apis.json'))).apis.pets.auth).toEqual({ type: 'bearer' });
  });
});
