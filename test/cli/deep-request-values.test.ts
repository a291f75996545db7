/**
 * A value nested thousands of levels deep (a response body) sent on as a later step's JSON body
 * and as parameters: the bytes the server receives parse back to the same depth.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runTool } from './run-tool.js';

const DEPTH = 20_000;

/** `{"a":{"a":…{"a":0}…}}`, `depth` objects deep, built as text. */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
}

/** How many objects deep `value` nests along its "a" keys. */
function depthOf(value: unknown): number {
  let depth = 0;
  for (let at = value; typeof at === 'object' && at !== null; at = (at as { a?: unknown }).a) depth++;
  return depth;
}

let server: Server;
let ws: Workspace;
const received: Array<{ url: string; body: string }> = [];

beforeAll(async () => {
  // The deep query strings are ~260 KB: more than Node's default 16 KB of request head.
  server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/deep') res.writeHead(200, { 'content-type': 'application/json' }).end(deepJson(DEPTH));
      else res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ws = makeWorkspace('tool-deep-request-');
  ws.fixture('deep-request.openapi.yaml', { BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  ws.fixture('deep-request.arazzo.yaml');
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  ws.remove();
});

describe(`a value ${DEPTH} levels deep sent on by a later step`, () => {
  it('is sent as the JSON body and as content and form query parameters, each parsing back to the same depth', async () => {
    const env = { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` };
    const result = await runTool(['arazzo', 'run', 'deep-request.arazzo.yaml', '--quiet'], { cwd: ws.dir, env });
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    const byPath = new Map(received.map((hit) => [new URL(hit.url, 'http://x').pathname, hit]));
    expect(depthOf(JSON.parse(byPath.get('/body')!.body))).toBe(DEPTH);
    const content = new URL(byPath.get('/content-param')!.url, 'http://x').searchParams.get('filter');
    expect(depthOf(JSON.parse(content!))).toBe(DEPTH);
    // A form-style object parameter is exploded: filter={"a":…} becomes a=<the inner value as JSON>.
    const form = new URL(byPath.get('/form-param')!.url, 'http://x').searchParams.get('a');
    expect(depthOf(JSON.parse(form!))).toBe(DEPTH - 1);
  });
});
