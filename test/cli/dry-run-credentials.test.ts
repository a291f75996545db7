/**
 * A dry run of a step bound to a registered API shows where its credentials would go, masked:
 * `Authorization: ***`, the API-key header or query parameter with `***`, without reading a
 * secret or fetching a token.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startScriptedServer, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace } from './run-in-workspace.js';

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  ws = makeWorkspace('tool-dry-run-credentials-');
  ws.fixture('binding-api.openapi.yaml');
});
afterEach(() => ws.remove());

const tool = (args: readonly string[], options: { env?: Record<string, string>; input?: string } = {}) => runInWorkspace(args, { cwd: ws.dir, ...options });

/** The dry run's three lines for step "read": request line, headers, body. */
async function dryRun(env?: Record<string, string>): Promise<{ line: string; headers: Record<string, string>; stderr: string }> {
  const result = await tool(['arazzo', 'run', ws.fixture('binding-name-match.arazzo.yaml'), '--dry-run'], env ? { env } : {});
  expect(result.code).toBe(0);
  const lines = result.stderr.split('\n');
  const at = lines.findIndex((line) => line.startsWith('read GET '));
  expect(at).toBeGreaterThanOrEqual(0);
  return { line: lines[at]!, headers: JSON.parse(lines[at + 1]!) as Record<string, string>, stderr: result.stderr };
}

describe('arazzo run --dry-run: the bound API credentials, masked', () => {
  it.each([
    ['a bearer token', ['--type', 'bearer', '--with-token'], 'bearer-s3cret-1a2b'],
    ['a basic password', ['--type', 'basic', '--username', 'alice', '--password-stdin'], 'basic-pa55-3c4d'],
  ])('shows Authorization: *** for %s', async (_name, flags, secret) => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    expect((await tool(['auth', 'login', 'secure', ...flags], { input: secret })).code).toBe(0);
    const shown = await dryRun();
    expect(shown.headers).toEqual({ Authorization: '***' });
    expect(shown.stderr).not.toContain(secret);
    expect(server.hits).toHaveLength(0);
  });

  it('shows the API-key header with *** and the registry headers as they are', async () => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`, '--header', 'X-Team: blue'])).code).toBe(0);
    expect((await tool(['auth', 'login', 'secure', '--type', 'api-key', '--key-name', 'X-Api-Key', '--with-token'], { input: 'apikey-s3cret-5e6f' })).code).toBe(0);
    const shown = await dryRun();
    expect(shown.headers).toEqual({ 'X-Team': 'blue', 'X-Api-Key': '***' });
  });

  it('shows the API-key query parameter with ***', async () => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    expect((await tool(['auth', 'login', 'secure', '--type', 'api-key', '--key-name', 'api_key', '--in', 'query', '--with-token'], { input: 'apikey-s3cret-7a8b' })).code).toBe(0);
    const shown = await dryRun();
    expect(shown.line).toBe(`read GET ${server.url}/v2/secret?api_key=***`);
    expect(shown.headers).toEqual({});
  });

  it('reads no token variable and fetches no OAuth2 token', async () => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    const login = await tool(['auth', 'login', 'secure', '--type', 'oauth2-client-credentials', '--token-url', `${server.url}/token`, '--client-id', 'tool-test', '--client-secret-env', 'SECURE_SECRET']);
    expect(login.code).toBe(0);
    // The variable is unset: a real run would fail, a dry run only shows where the token goes.
    const shown = await dryRun();
    expect(shown.headers).toEqual({ Authorization: '***' });
    expect(server.hits).toHaveLength(0);
  });

  it('shows Authorization: *** for a bearer token read from an environment variable', async () => {
    expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
    expect((await tool(['auth', 'login', 'secure', '--type', 'bearer', '--token-env', 'SECURE_TOKEN'])).code).toBe(0);
    const shown = await dryRun({ SECURE_TOKEN: 'env-tok-3344' });
    expect(shown.headers).toEqual({ Authorization: '***' });
    expect(shown.stderr).not.toContain('env-tok-3344');
  });
});
