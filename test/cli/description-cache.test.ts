/**
 * The description cache, in-process against a real server: an http(s) source description is
 * fetched once within the TTL, revalidated with its ETag after it, used from the cache (with a
 * warning) when its server is down, and forgotten by `tool cache clear`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import { startScriptedServer, type Hit, type Reply, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { fillTemplate, makeWorkspace, RUN_FIXTURES, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace } from './run-in-workspace.js';

let server: ScriptedServer;
let ws: Workspace;
let description: string;

beforeAll(async () => {
  server = await startScriptedServer();
  description = fillTemplate(readFileSync(join(RUN_FIXTURES, 'api.openapi.yaml'), 'utf8'), { BASE_URL: server.url });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  ws = makeWorkspace('tool-cache-');
});
afterEach(() => ws.remove());

const SPEC = 'GET /specs/api.openapi.yaml';
const cacheDir = () => join(ws.dir, 'cache', 'tool', 'descriptions');

/** The description with an ETag; a matching If-None-Match gets 304. */
function specWithEtag(hit: Hit): Reply {
  if (hit.headers['if-none-match'] === '"v1"') return { status: 304, headers: { etag: '"v1"' } };
  return { body: description, headers: { 'content-type': 'application/yaml', etag: '"v1"' } };
}

function run(specUrl: string, env: Record<string, string> = {}, args: readonly string[] = []) {
  const file = ws.fixture('cache-remote-source.arazzo.yaml', { SPEC_URL: specUrl });
  return runInWorkspace(['arazzo', 'run', file, ...args], { cwd: ws.dir, env });
}

describe('the description cache', () => {
  it('fetches a remote source description once while it is fresh', async () => {
    server.setRoutes({ [SPEC]: specWithEtag, 'GET /a': {} });
    const first = await run(`${server.url}/specs/api.openapi.yaml`);
    const second = await run(`${server.url}/specs/api.openapi.yaml`);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(recordOf(second).steps.map((s) => s.status)).toEqual([200]);
    expect(server.count(SPEC)).toBe(1);
    expect(server.count('GET /a')).toBe(2);
  });

  it('revalidates with If-None-Match once the TTL has passed, and reuses the copy on 304', async () => {
    server.setRoutes({ [SPEC]: specWithEtag, 'GET /a': {} });
    expect((await run(`${server.url}/specs/api.openapi.yaml`)).code).toBe(0);
    const second = await run(`${server.url}/specs/api.openapi.yaml`, { TOOL_CACHE_TTL: '0' });
    expect(second.code).toBe(0);
    expect(recordOf(second).steps.map((s) => s.status)).toEqual([200]);
    const specHits = server.hits.filter((hit) => hit.route === SPEC);
    expect(specHits.map((hit) => hit.headers['if-none-match'])).toEqual([undefined, '"v1"']);
  });

  it('uses the cached copy with a warning naming the URL and its age when the description server is down', async () => {
    const specServer = await startScriptedServer({ [SPEC]: specWithEtag });
    const specUrl = `${specServer.url}/specs/api.openapi.yaml`;
    server.setRoutes({ 'GET /a': {} });
    expect((await run(specUrl)).code).toBe(0);
    await specServer.close();
    const offline = await run(specUrl, { TOOL_CACHE_TTL: '0' }, ['--tool-retry', '0']);
    expect(offline.code).toBe(0);
    expect(recordOf(offline).steps.map((s) => s.status)).toEqual([200]);
    expect(offline.stderr).toMatch(new RegExp(`warning: ${specUrl.replace(/\./g, '\\.')}: the server could not be reached \\(connection refused: GET [^)]*\\); using the copy cached \\d+ s ago`));
  });

  it('exits 2 naming the URL when the server is down and nothing is cached', async () => {
    const specServer = await startScriptedServer();
    await specServer.close();
    const result = await run(`${specServer.url}/specs/api.openapi.yaml`, {}, ['--tool-retry', '0']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${specServer.url}/specs/api.openapi.yaml: cannot fetch the description: connection refused`);
  });

  it('is emptied by `tool cache clear`, so the next run fetches again', async () => {
    server.setRoutes({ [SPEC]: specWithEtag, 'GET /a': {} });
    expect((await run(`${server.url}/specs/api.openapi.yaml`)).code).toBe(0);
    expect(readdirSync(cacheDir()).length).toBeGreaterThan(0);
    const cleared = await runInWorkspace(['cache', 'clear'], { cwd: ws.dir });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toBe('');
    expect(cleared.stderr).toBe(`Removed 1 fetched description, 1 parsed Arazzo document and 1 parsed index from ${cacheDir()}.\n`);
    expect(existsSync(cacheDir())).toBe(false);
    expect((await run(`${server.url}/specs/api.openapi.yaml`)).code).toBe(0);
    expect(server.count(SPEC)).toBe(2);
  });

  it('leaves cached OAuth tokens alone when clearing', async () => {
    server.setRoutes({ [SPEC]: specWithEtag, 'GET /a': {} });
    expect((await run(`${server.url}/specs/api.openapi.yaml`)).code).toBe(0);
    const tokens = ws.write('cache/tool/tokens.json', '{ "version": 1, "tokens": {} }\n');
    expect((await runInWorkspace(['cache', 'clear'], { cwd: ws.dir })).code).toBe(0);
    expect(readFileSync(tokens, 'utf8')).toBe('{ "version": 1, "tokens": {} }\n');
  });

  it('serves `tool api ops` for a spec URL from the cache', async () => {
    server.setRoutes({ [SPEC]: specWithEtag });
    expect((await runInWorkspace(['api', 'add', 'remote', server.url, '--spec', `${server.url}/specs/api.openapi.yaml`], { cwd: ws.dir })).code).toBe(0);
    const first = await runInWorkspace(['api', 'ops', 'remote'], { cwd: ws.dir });
    const second = await runInWorkspace(['api', 'ops', 'remote', '--output', 'json'], { cwd: ws.dir });
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.stdout.split('\n')[0]).toMatch(/^OPERATION ID\s+METHOD\s+PATH\s+SUMMARY$/);
    expect(first.stdout).toMatch(/\ngetItem\s+GET\s+\/items\/\{id\}\n/);
    expect((JSON.parse(second.stdout) as Array<{ operationId: string }>).map((op) => op.operationId)).toContain('createItem');
    expect(server.count(SPEC)).toBe(1);
  });
});
