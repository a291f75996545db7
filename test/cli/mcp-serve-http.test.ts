/**
 * `tool mcp serve --http`: the same scenarios as over stdio (mcp-scenarios.ts), through the SDK's
 * Streamable HTTP client with the bearer token the server printed; and the token's check, the
 * loopback rule and the stop on SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runTool, spawnTool } from '../e2e/helpers/run-tool.js';
import { connectHttp, setUpWorkspace, startApi, startHttpServer, type Api, type Connected, type HttpServer, type Workspace } from './mcp-harness.js';
import { mcpScenarios } from './mcp-scenarios.js';

describe('tool mcp serve over Streamable HTTP', () => {
  const servers: HttpServer[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.process.child.kill('SIGTERM');
      await server.process.result.catch(() => undefined);
    }
  });
  mcpScenarios(async (ws, args = []): Promise<Connected> => {
    const server = await startHttpServer(ws, args);
    servers.push(server);
    return connectHttp(server);
  });
});

describe('tool mcp serve --http: the bearer token and the address', () => {
  let api: Api;
  let ws: Workspace;
  let server: HttpServer;

  beforeAll(async () => {
    api = await startApi();
    ws = await setUpWorkspace(api);
    server = await startHttpServer(ws);
  }, 120_000);

  afterAll(async () => {
    server?.process.child.kill('SIGTERM');
    await server?.process.result.catch(() => undefined);
    await api?.close();
    ws?.remove();
  });

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
  const post = (authorization: string | undefined) =>
    fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(initialize),
    });

  it('listens on loopback and refuses a request without the token, or with another one (401)', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const without = await post(undefined);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(`Bearer ${server.token.slice(1)}x`)).status).toBe(401);
    expect((await post(`Bearer ${server.token}`)).status).toBe(200);
    expect(api.hits).toEqual([]);
  });

  it('refuses a request whose Host or Origin is not loopback (DNS rebinding), even with the token (403)', async () => {
    const { request } = await import('node:http');
    const url = new URL(server.url);
    const send = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${server.token}`, ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify(initialize));
      });
    expect(await send({ host: `attacker.example:${url.port}` })).toBe(403);
    expect(await send({ origin: 'http://attacker.example' })).toBe(403);
    expect(await send({ origin: 'null' })).toBe(403);
    expect(await send({ host: `localhost:${url.port}`, origin: `http://localhost:${url.port}` })).toBe(200);
    expect(await send({ origin: 'http://127.0.0.1:6274' })).toBe(200);
    expect(api.hits).toEqual([]);
  });

  it('refuses a host that is not loopback unless --http-host names it (exit 2)', async () => {
    const refused = await runTool(['mcp', 'serve', 'flows', '--http', '0.0.0.0:0'], { cwd: ws.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: --http 0\.0\.0\.0:0: 0\.0\.0\.0 is not a loopback address; the server listens on loopback only unless --http-host names the host\n/);
    expect(refused.stderr).not.toMatch(/at .*\.js:\d+/);
    const malformed = await runTool(['mcp', 'serve', 'flows', '--http', 'port'], { cwd: ws.dir });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^error: --http "port" is not a port or host:port/);
  });

  it('takes the token from TOOL_MCP_TOKEN and never prints it', async () => {
    const chosen = 'chosen-token-of-the-user-0123456789abcdef';
    const own = spawnTool(['mcp', 'serve', 'flows', '--http', '127.0.0.1:0'], { cwd: ws.dir, env: { TOOL_MCP_TOKEN: chosen }, timeoutMs: 120_000 });
    try {
      await own.waitForStderr(/bearer token: .*\n/);
      const { stderr } = own.output();
      expect(stderr).toMatch(/bearer token: the value of TOOL_MCP_TOKEN\n/);
      expect(stderr).not.toContain(chosen);
      const url = /listening on (\S+)/.exec(stderr)![1]!;
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${chosen}` }, body: JSON.stringify(initialize) });
      expect(answer.status).toBe(200);
    } finally {
      own.child.kill('SIGTERM');
      await own.result.catch(() => undefined);
    }
    const short = await runTool(['mcp', 'serve', 'flows', '--http', '127.0.0.1:0'], { cwd: ws.dir, env: { TOOL_MCP_TOKEN: 'short' } });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/TOOL_MCP_TOKEN must be at least 32 characters/);
    expect(short.stderr).not.toContain('short\n');
  });

  it('ends a session idle past TOOL_MCP_SESSION_IDLE, and keeps one that is in use', async () => {
    const chosen = 'idle-test-token-0123456789abcdefghijklmnop';
    const own = spawnTool(['mcp', 'serve', 'flows', '--http', '127.0.0.1:0', '--log-level', 'info'], { cwd: ws.dir, env: { TOOL_MCP_TOKEN: chosen, TOOL_MCP_SESSION_IDLE: '1' }, timeoutMs: 120_000 });
    try {
      await own.waitForStderr(/bearer token: .*\n/);
      const url = /listening on (\S+)/.exec(own.output().stderr)![1]!;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${chosen}` };
      const started = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
      const session = started.headers.get('mcp-session-id')!;
      await started.text();
      const ping = (id: number) => fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) });
      // Used every half second: still there after two seconds.
      for (let i = 0; i < 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect((await ping(10 + i)).status).toBe(200);
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const late = await ping(99);
      expect(late.status).toBe(404);
      expect(await late.text()).toMatch(/no such session/);
      expect(own.output().stderr).toMatch(/session \S+ ended: idle for 1 s/);
    } finally {
      own.child.kill('SIGTERM');
      await own.result.catch(() => undefined);
    }
  });

  it('stops on SIGTERM', async () => {
    const other = await startHttpServer(ws);
    other.process.child.kill('SIGTERM');
    const result = await other.process.result;
    expect(result.code ?? result.signal).toBe(143);
  });
});
