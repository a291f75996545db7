/**
 * A value nested thousands of levels deep (a response body) sent on as a later step's JSON body
 * and as parameters: the bytes the server receives parse back to the same depth.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { deepJson, depthOf } from './deep-json.js';
import { runTool } from './run-tool.js';

const DEPTH = 20_000;

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

const run = (workflow: string) =>
  runTool(['arazzo', 'run', 'deep-request.arazzo.yaml', '--workflow', workflow, '--quiet'], {
    cwd: ws.dir,
    env: { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` },
  });

/** The request that reached `path` last. */
function hitOn(path: string): { url: URL; body: string } {
  const hit = received.filter((h) => new URL(h.url, 'http://x').pathname === path).at(-1);
  if (hit === undefined) throw new Error(`nothing reached ${path}`);
  return { url: new URL(hit.url, 'http://x'), body: hit.body };
}

describe(`a value ${DEPTH} levels deep sent on by a later step`, () => {
  it('is sent as the JSON request body, which parses back to the same depth', async () => {
    const result = await run('deepBody');
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(depthOf(JSON.parse(hitOn('/body').body))).toBe(DEPTH);
  });

  it('is sent as a content (JSON) query parameter and as a form-style one, each parsing back to the same depth', async () => {
    const result = await run('deepParameters');
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(depthOf(JSON.parse(hitOn('/content-param').url.searchParams.get('filter')!))).toBe(DEPTH);
    // A form-style object parameter is exploded: filter={"a":…} becomes a=<the inner value as JSON>.
    expect(depthOf(JSON.parse(hitOn('/form-param').url.searchParams.get('a')!))).toBe(DEPTH - 1);
  });
});
