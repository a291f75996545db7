/**
 * What the `tool mcp serve` tests share: a real node:http API on 127.0.0.1 (a pet read that echoes
 * the request's Authorization header into its body, a read it holds until the client goes away, an
 * order it creates), a workspace holding test/fixtures/mcp/ with that API in its registry and a
 * bearer token logged in, and MCP clients (the SDK's) connected to the real binary over stdio or
 * Streamable HTTP.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureBuilt, REPO_ROOT } from '../e2e/helpers/build.js';
import { runToolWithInput } from '../e2e/helpers/tool-with-input.js';
import { spawnTool, TOOL_BIN, toolEnv, type ToolProcess } from '../e2e/helpers/run-tool.js';

/** The registry's bearer token: it must never reach a client. */
export const REGISTRY_TOKEN = 'registry-t0ken-never-shown-4711';

export interface Api {
  url: string;
  /** `METHOD /path` of every request, in order. */
  hits: string[];
  /** Requests whose connection closed before they were answered. */
  abandoned: string[];
  close(): Promise<void>;
}

/** The test API. GET /slow is never answered: the request stays open until its client aborts it. */
export async function startApi(): Promise<Api> {
  const hits: string[] = [];
  const abandoned: string[] = [];
  const held = new Set<ServerResponse>();
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const hit = `${req.method} ${req.url}`;
    hits.push(hit);
    req.resume();
    const pet = /^\/pets\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && pet) {
      if (pet[1] === '404') return json(res, 404, { error: 'no such pet', seenAuth: req.headers.authorization });
      return json(res, 200, { name: 'Rex', seenAuth: req.headers.authorization });
    }
    if (req.method === 'GET' && req.url === '/slow') {
      held.add(res);
      res.on('close', () => {
        held.delete(res);
        if (!res.writableEnded) abandoned.push(hit);
      });
      return;
    }
    if (req.method === 'GET' && req.url === '/after') return json(res, 200, {});
    if (req.method === 'POST' && req.url === '/orders') return json(res, 201, { id: 'o-1' });
    json(res, 404, { error: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    abandoned,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Workspace {
  dir: string;
  env: Record<string, string>;
  remove(): void;
}

/** A workspace with test/fixtures/mcp/ under flows/, the API registered as `shop` with its description, and REGISTRY_TOKEN logged in. */
export async function setUpWorkspace(api: Api): Promise<Workspace> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tool-mcp-'));
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'mcp'), join(dir, 'flows'), { recursive: true });
  const added = await runToolWithInput(['api', 'add', 'shop', api.url, '--spec', join(dir, 'flows', 'shop.openapi.yaml')], { cwd: dir });
  if (added.code !== 0) throw new Error(`api add failed: ${added.stderr}`);
  const login = await runToolWithInput(['auth', 'login', 'shop', '--type', 'bearer', '--with-token'], { cwd: dir, input: REGISTRY_TOKEN });
  if (login.code !== 0) throw new Error(`auth login failed: ${login.stderr}`);
  return { dir, env: toolEnv(dir), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Connected {
  client: Client;
  /** The server's stderr so far. */
  stderr(): string;
  /** Errors the client saw outside a request (a response to a request it had cancelled would be one). */
  errors: Error[];
  close(): Promise<void>;
}

/** An SDK client connected over stdio to `tool mcp serve flows <args>` (the real binary). */
export async function connectStdio(ws: Workspace, args: readonly string[] = []): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [TOOL_BIN, 'mcp', 'serve', 'flows', '--log-level', 'info', ...args], env: ws.env, cwd: ws.dir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'tool-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, errors, close: () => client.close() };
}

/** `tool mcp serve flows --http 127.0.0.1:0 <args>` running, with its URL and token read from its stderr. */
export interface HttpServer {
  process: ToolProcess;
  url: string;
  token: string;
}

export async function startHttpServer(ws: Workspace, args: readonly string[] = []): Promise<HttpServer> {
  await ensureBuilt();
  const process = spawnTool(['mcp', 'serve', 'flows', '--http', '127.0.0.1:0', '--log-level', 'info', ...args], { cwd: ws.dir, timeoutMs: 120_000 });
  await process.waitForStderr(/bearer token: \S+\n/);
  const { stderr } = process.output();
  const url = /listening on (\S+)/.exec(stderr)![1]!;
  const token = /bearer token: (\S+)/.exec(stderr)![1]!;
  return { process, url, token };
}

/** An SDK client connected to a running HTTP server with its bearer token. */
export async function connectHttp(server: HttpServer): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } });
  const client = new Client({ name: 'tool-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr: () => server.process.output().stderr, errors, close: () => client.close() };
}

/** Resolves once `check` holds, polling every 20 ms; rejects after `ms`. */
export async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
