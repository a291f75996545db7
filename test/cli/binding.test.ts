/**
 * Binding workflow sources to registered APIs, in-process against a real server: the spec's
 * order (x-tool-api, then a name match, else synthetic), the bound API's base URL and credentials,
 * the unknown-API error before any request, and the --verbose banner.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf } from '../e2e/helpers/record.js';
import { startScriptedServer, type Reply, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace, type WorkspaceResult } from './run-in-workspace.js';

const TOKEN = 'bearer-tok-1f2e3d';
let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  ws = makeWorkspace('tool-binding-');
  ws.fixture('binding-api.openapi.yaml');
  ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
});
afterEach(() => ws.remove());

const tool = (args: readonly string[]) => runInWorkspace(args, { cwd: ws.dir });

/** Registers `secure` at <server>/v2 with a bearer token, through the commands. */
async function registerSecure(): Promise<void> {
  expect((await tool(['api', 'add', 'secure', `${server.url}/v2`])).code).toBe(0);
  const login = await runInWorkspace(['auth', 'login', 'secure', '--type', 'bearer', '--with-token'], { cwd: ws.dir, input: TOKEN });
  expect(login.code).toBe(0);
}

/** The protected route: 200 with a value only for the right token. */
function protectedSecret(hit: { headers: Record<string, unknown> }): Reply {
  return hit.headers.authorization === `Bearer ${TOKEN}` ? { body: { value: 'the-secret' } } : { status: 401, body: { error: 'no' } };
}

function run(fixture: string, args: readonly string[] = []): Promise<WorkspaceResult> {
  return tool(['arazzo', 'run', ws.fixture(fixture, { BASE_URL: server.url }), ...args]);
}

describe('arazzo run: binding sources to registered APIs', () => {
  it('binds a source by x-tool-api: the API base URL wins over the description servers and its token arrives', async () => {
    await registerSecure();
    server.setRoutes({ 'GET /v2/secret': protectedSecret });
    const result = await run('binding-x-tool-api.arazzo.yaml');
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ value: 'the-secret' });
    expect(server.hits.map((hit) => `${hit.method} ${hit.path} ${String(hit.headers.authorization)}`)).toEqual([`GET /v2/secret Bearer ${TOKEN}`]);
    expect(result.stderr).not.toContain('not bound');
  });

  it('binds a source whose name equals a registered API', async () => {
    await registerSecure();
    server.setRoutes({ 'GET /v2/secret': protectedSecret });
    const result = await run('binding-name-match.arazzo.yaml', ['--verbose']);
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ value: 'the-secret' });
    expect(result.stderr).toContain(`secure: bound to API "secure" (name match); base URL ${server.url}/v2; auth bearer token`);
  });

  it('prefers x-tool-api over a registered API that has the source name', async () => {
    await registerSecure();
    expect((await tool(['api', 'add', 'vault', 'http://127.0.0.1:9/never'])).code).toBe(0);
    server.setRoutes({ 'GET /v2/secret': protectedSecret });
    const result = await run('binding-x-tool-api.arazzo.yaml', ['--verbose']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('vault: bound to API "secure" (x-tool-api)');
  });

  it('sends a synthetic source unauthenticated, to its description server, with the exact fix-it command', async () => {
    await registerSecure();
    server.setRoutes({ 'GET /a': {}, 'GET /secret': {}, 'GET /b': {} });
    const result = await run('unbound-source.arazzo.yaml');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`source "vault" is not bound to a configured API; its requests are sent without credentials.\n  To bind it: tool api add vault ${server.url} && tool auth login vault`);
    expect(server.hits.map((hit) => hit.path)).toEqual(['/a', '/secret', '/b']);
    expect(server.hits.every((hit) => hit.headers.authorization === undefined)).toBe(true);
  });

  it('exits 2 before any request when x-tool-api names an API that is not registered, with the fix-it command', async () => {
    await registerSecure();
    server.setRoutes({ 'GET /a': {} });
    const result = await run('unbound-unknown-api.arazzo.yaml');
    expectNoRun(result, 2);
    expect(result.stderr).toContain('source "vault" has x-tool-api: no-such-api, but no API named "no-such-api" is configured');
    expect(result.stderr).toContain('tool api add no-such-api <base-url>  (then: tool auth login no-such-api)');
    expect(server.hits).toHaveLength(0);
  });

  it('prints one --verbose banner line per source: what it is bound to, why, the base URL and the auth scheme', async () => {
    await registerSecure();
    server.setRoutes({ 'GET /v2/secret': protectedSecret, 'GET /a': {} });
    const result = await run('binding-two-sources.arazzo.yaml', ['--verbose']);
    expect(result.code).toBe(0);
    const banner = result.stderr.split('\n').filter((line) => /^ {2}(vault|open): /.test(line));
    expect(banner).toEqual([
      `  vault: bound to API "secure" (x-tool-api); base URL ${server.url}/v2; auth bearer token; description ${ws.dir}/binding-api.openapi.yaml`,
      `  open: synthetic (no configured API); base URL ${server.url}; auth none; description ${ws.dir}/api.openapi.yaml`,
    ]);
    expect(result.stderr.indexOf('sources:')).toBeLessThan(result.stderr.indexOf('read'));
    expect(server.hits.find((hit) => hit.path === '/a')?.headers.authorization).toBeUndefined();
  });

  it('prints no banner without --verbose', async () => {
    await registerSecure();
    server.setRoutes({ 'GET /v2/secret': protectedSecret });
    const result = await run('binding-x-tool-api.arazzo.yaml');
    expect(result.stderr).not.toContain('sources:');
    expect(result.stderr).not.toContain('bound to API');
  });
});
