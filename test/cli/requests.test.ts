/**
 * `tool get|post|put|patch|delete|head` in-process: methods, bodies from the flag or a file,
 * `<api>/<path>` with the API's credentials, --fail, -v on stderr only. Bodies from a real stdin
 * pipe and the exact bytes on a real stdout pipe: test/e2e/binary.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { INTERNAL_ERROR, STACK_FRAME } from '../e2e/helpers/record.js';
import { startScriptedServer, type Hit, type Reply, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace } from './run-in-workspace.js';

const TOKEN = 'direct-tok-4d5e';
let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  ws = makeWorkspace('tool-requests-');
});
afterEach(() => ws.remove());

const tool = (args: readonly string[], input?: string) => runInWorkspace(args, { cwd: ws.dir, ...(input !== undefined ? { input } : {}) });
/** Echoes what arrived as JSON. */
const echo = (hit: Hit): Reply => ({ body: { method: hit.method, path: hit.path, query: hit.query, contentType: hit.headers['content-type'] ?? null, body: hit.body } });

describe('direct calls', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('sends %s and prints the response body on stdout', async (method) => {
    server.setRoutes({ [`${method} /things/7`]: echo });
    const result = await tool([method.toLowerCase(), `${server.url}/things/7?x=1`]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ method, path: '/things/7', query: { x: '1' }, contentType: null, body: '' });
  });

  it('sends HEAD and prints no body', async () => {
    server.setRoutes({ 'HEAD /things/7': { headers: { 'x-count': '3' } } });
    const result = await tool(['head', `${server.url}/things/7`, '-v']);
    expect(result.code).toBe(0);
    expect(result.bytes.length).toBe(0);
    expect(result.stderr).toContain('< 200 OK');
    expect(result.stderr).toContain('< x-count: 3');
    expect(server.hits.map((hit) => hit.method)).toEqual(['HEAD']);
  });

  it('sends -d text as a form by default and as JSON with --json', async () => {
    server.setRoutes({ 'POST /things': echo });
    const form = JSON.parse((await tool(['post', `${server.url}/things`, '-d', 'a=1&b=2'])).stdout) as Record<string, unknown>;
    expect([form.contentType, form.body]).toEqual(['application/x-www-form-urlencoded', 'a=1&b=2']);
    const json = await tool(['post', `${server.url}/things`, '--json', '-d', '{"a":1}']);
    expect((JSON.parse(json.stdout) as Record<string, unknown>).body).toBe('{"a":1}');
    expect(server.hits[1]?.headers['content-type']).toBe('application/json');
    expect(server.hits[1]?.headers.accept).toBe('application/json');
  });

  it('exits 2 when the -d @file does not exist, before any request', async () => {
    server.setRoutes({ 'POST /things': echo });
    const result = await tool(['post', `${server.url}/things`, '-d', '@missing.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot read the request body from');
    expect(server.hits).toHaveLength(0);
  });

  it('uses a registered API for <api>/<path>: its base URL and its credentials, which an absolute URL does not get', async () => {
    expect((await tool(['api', 'add', 'shop', `${server.url}/v1`])).code).toBe(0);
    expect((await tool(['auth', 'login', 'shop', '--type', 'bearer', '--with-token'], TOKEN)).code).toBe(0);
    server.setRoutes({ 'GET /v1/orders/{id}': (hit) => (hit.headers.authorization === `Bearer ${TOKEN}` ? { body: { id: 9 } } : { status: 401 }) });
    const bound = await tool(['get', 'shop/orders/9?full=true']);
    expect({ code: bound.code, stdout: bound.stdout }).toEqual({ code: 0, stdout: '{"id":9}' });
    expect(server.hits[0]?.query).toEqual({ full: 'true' });
    const absolute = await tool(['get', `${server.url}/v1/orders/9`]);
    expect(absolute.code).toBe(0);
    expect(absolute.stderr).toBe('HTTP 401 Unauthorized\nhint: this URL is API "shop"\'s: tool get shop/orders/9 sends its credentials\n');
    expect(server.hits[1]?.headers.authorization).toBeUndefined();
  });

  it('exits 2 with the fix-it command for an unknown API name', async () => {
    const result = await tool(['get', 'nosuch/orders']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no API named "nosuch" is registered');
    expect(result.stderr).toContain('tool api add nosuch <base-url>');
  });

  it('exits 0 on HTTP errors, and 1 with --fail or -f, the body then on stderr', async () => {
    server.setRoutes({ 'GET /gone': { status: 404, body: { error: 'not here' } }, 'GET /broken': { status: 500, body: 'boom' } });
    const plain = await tool(['get', `${server.url}/gone`]);
    expect([plain.code, plain.stdout]).toEqual([0, '{"error":"not here"}']);
    const failing = await tool(['get', `${server.url}/gone`, '--fail']);
    expect([failing.code, failing.stdout]).toEqual([1, '']);
    expect(failing.stderr).toBe(`error: HTTP 404 Not Found: GET ${server.url}/gone\n{"error":"not here"}\n`);
    const short = await tool(['get', `${server.url}/broken`, '-f', '--tool-retry', '0']);
    expect([short.code, short.stdout]).toEqual([1, '']);
  });

  it('exits 1 with one line when no response arrives', async () => {
    const gone = await startScriptedServer();
    await gone.close();
    const result = await tool(['get', `${gone.url}/x`, '--tool-retry', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: connection refused: GET ${gone.url}/x\n`);
  });

  it('prints the exchange on stderr with -v, secrets masked, and only the body on stdout', async () => {
    server.setRoutes({ 'GET /things': { body: { ok: true }, headers: { 'set-cookie': 'session=abc123' } } });
    const result = await tool(['get', `${server.url}/things`, '-v', '-H', 'Authorization: Bearer hand-made-s3cret', '-H', 'X-Trace: t1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"ok":true}');
    const lines = result.stderr.split('\n');
    expect(lines.slice(0, 4)).toEqual([`> GET ${server.url}/things`, '> Authorization: ***', '> X-Trace: t1', '> accept: */*']);
    expect(lines).toContain('< 200 OK');
    expect(lines).toContain('< content-type: application/json');
    expect(lines).toContain('< set-cookie: ***');
    expect(result.stderr).not.toContain('hand-made-s3cret');
    expect(result.stderr).not.toContain('abc123');
    expect(server.hits[0]?.headers.authorization).toBe('Bearer hand-made-s3cret');
  });

  it('never prints a stack trace for a usage error', async () => {
    const result = await tool(['get', 'example.com/x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('For a URL, give the scheme: https://example.com/x');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stderr).not.toMatch(INTERNAL_ERROR);
  });
});
