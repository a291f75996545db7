/**
 * Credentials of bound APIs, in-process against real servers: OAuth2 tokens are reused across
 * runs, credentials never follow a redirect to another origin, and no secret shows up in anything
 * tool prints.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import { startScriptedServer, type Hit, type Reply, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace, type WorkspaceResult } from './run-in-workspace.js';

const CLIENT_SECRET = 'client-s3cret-77a1';
const ACCESS_TOKEN = 'access-tok-9b8c';
let server: ScriptedServer;
let elsewhere: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
  elsewhere = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  await elsewhere.close();
});
beforeEach(() => {
  ws = makeWorkspace('tool-credentials-');
  ws.fixture('binding-api.openapi.yaml');
});
afterEach(() => ws.remove());

const tool = (args: readonly string[], env?: Record<string, string>) => runInWorkspace(args, { cwd: ws.dir, ...(env ? { env } : {}) });
const login = (args: readonly string[], input: string) => runInWorkspace(['auth', 'login', 'secure', ...args], { cwd: ws.dir, input });
const run = (fixture: string, args: readonly string[] = [], env?: Record<string, string>) => tool(['arazzo', 'run', ws.fixture(fixture), ...args], env);

/** The token endpoint: client credentials checked with HTTP Basic, one fixed access token. */
function tokenEndpoint(hit: Hit): Reply {
  const expected = `Basic ${Buffer.from(`tool-test:${CLIENT_SECRET}`).toString('base64')}`;
  if (hit.headers.authorization !== expected || !hit.body.includes('grant_type=client_credentials')) return { status: 401, body: { error: 'invalid_client' } };
  return { body: { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 } };
}

const accepts = (authorization: string) => (hit: Hit): Reply => (hit.headers.authorization === authorization ? { body: { value: 'ok' } } : { status: 401, body: { error: 'no' } });

describe('arazzo run: credentials of bound APIs', () => {
  it('asks the token endpoint once over two runs with oauth2 client credentials', async () => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    const setUp = await tool(['auth', 'login', 'secure', '--type', 'oauth2-client-credentials', '--token-url', `${server.url}/token`, '--client-id', 'tool-test', '--client-secret-env', 'SECURE_SECRET']);
    expect(setUp.code).toBe(0);
    server.setRoutes({ 'POST /token': tokenEndpoint, 'GET /v2/secret': accepts(`Bearer ${ACCESS_TOKEN}`) });
    const env = { SECURE_SECRET: CLIENT_SECRET };
    const first = await run('binding-name-match.arazzo.yaml', [], env);
    const second = await run('binding-name-match.arazzo.yaml', [], env);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(recordOf(second).outputs).toEqual({ value: 'ok' });
    expect(server.count('POST /token')).toBe(1);
    expect(server.count('GET /v2/secret')).toBe(2);
  });

  it('arazzo test --concurrency: runs in flight together ask the token endpoint once, and no output holds the token', async () => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    expect((await tool(['auth', 'login', 'secure', '--type', 'oauth2-client-credentials', '--token-url', `${server.url}/token`, '--client-id', 'tool-test', '--client-secret-env', 'SECURE_SECRET'])).code).toBe(0);
    // A slow token endpoint: every run of the first pass needs the token before any has it.
    server.setRoutes({ 'POST /token': (hit) => ({ ...tokenEndpoint(hit), delayMs: 300 }), 'GET /v2/secret': accepts(`Bearer ${ACCESS_TOKEN}`) });
    const result = await tool(['arazzo', 'test', ws.fixture('binding-name-match.arazzo.yaml'), '--concurrency', '8', '--repeat', '16', '--results', 'results.jsonl'], { SECURE_SECRET: CLIENT_SECRET });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { passed: number }).passed).toBe(16);
    expect(server.count('POST /token')).toBe(1);
    expect(server.count('GET /v2/secret')).toBe(16);
    for (const text of [result.stdout, result.stderr, readFileSync(join(ws.dir, 'results.jsonl'), 'utf8')]) {
      expect(text).not.toContain(ACCESS_TOKEN);
      expect(text).not.toContain(CLIENT_SECRET);
    }
  });

  it.each([
    ['bearer', ['--type', 'bearer', '--with-token'], 'tok-redirect-5e6f', 'authorization'],
    ['api-key', ['--type', 'api-key', '--key-name', 'X-Api-Key', '--with-token'], 'key-redirect-7a8b', 'x-api-key'],
  ])('never sends %s credentials to the origin a bound operation redirects to', async (_scheme, flags, secret, header) => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    expect((await login(flags, secret)).code).toBe(0);
    server.setRoutes({ 'GET /v2/moved': { status: 302, headers: { location: `${elsewhere.url}/landing` } } });
    elsewhere.setRoutes({ 'GET /landing': { body: { landed: true } } });
    const result = await run('binding-redirect.arazzo.yaml');
    expect(result.code).toBe(0);
    expect(server.hits[0]?.headers[header]).toContain(secret);
    expect(elsewhere.hits).toHaveLength(1);
    expect(elsewhere.hits[0]?.headers[header]).toBeUndefined();
    expect(JSON.stringify(elsewhere.hits[0]?.headers)).not.toContain(secret);
  });

  describe('keeps every secret out of stdout and stderr', () => {
    const basic = (password: string) => `Basic ${Buffer.from(`alice:${password}`).toString('base64')}`;
    const schemes: Array<[string, string[], string, (hit: Hit) => Reply]> = [
      ['bearer token', ['--type', 'bearer', '--with-token'], 'bearer-s3cret-1a2b', accepts('Bearer bearer-s3cret-1a2b')],
      ['basic password', ['--type', 'basic', '--username', 'alice', '--password-stdin'], 'basic-pa55-3c4d', accepts(basic('basic-pa55-3c4d'))],
      ['api key', ['--type', 'api-key', '--key-name', 'X-Api-Key', '--with-token'], 'apikey-s3cret-5e6f', (hit) => (hit.headers['x-api-key'] === 'apikey-s3cret-5e6f' ? { body: { value: 'ok' } } : { status: 401 })],
      ['client secret', ['--type', 'oauth2-client-credentials', '--token-url', '{{TOKEN_URL}}', '--client-id', 'tool-test', '--client-secret-stdin'], CLIENT_SECRET, accepts(`Bearer ${ACCESS_TOKEN}`)],
    ];

    it.each(schemes)('%s', async (_name, flags, secret, route) => {
      expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
      server.setRoutes({ 'POST /token': tokenEndpoint, 'GET /v2/secret': route });
      const loggedIn = await login(flags.map((flag) => flag.replace('{{TOKEN_URL}}', `${server.url}/token`)), secret);
      expect(loggedIn.code).toBe(0);
      const outputs: Array<{ stdout: string; stderr: string }> = [loggedIn];
      const ok = await run('binding-name-match.arazzo.yaml', ['--verbose']);
      expect(ok.code).toBe(0);
      outputs.push(ok, await run('binding-name-match.arazzo.yaml', ['--dry-run', '--verbose']), await tool(['auth', 'status', 'secure']), await tool(['get', 'secure/secret', '-v']));
      server.setRoutes({ 'POST /token': tokenEndpoint, 'GET /v2/secret': { status: 403, body: { error: 'forbidden' } } });
      const failed: WorkspaceResult = await run('binding-name-match.arazzo.yaml', ['--verbose']);
      expect(failed.code).toBe(1);
      outputs.push(failed);
      const forbidden = [secret, ACCESS_TOKEN, basic(secret).slice('Basic '.length)];
      for (const output of outputs) {
        for (const value of forbidden) {
          expect(output.stdout).not.toContain(value);
          expect(output.stderr).not.toContain(value);
        }
      }
      // The credentials were really sent (by the run and by the direct call), so the absence above means something.
      expect(recordOf(ok).outputs).toEqual({ value: 'ok' });
      expect(outputs[4]?.stdout).toBe('{"value":"ok"}');
    });
  });
});
