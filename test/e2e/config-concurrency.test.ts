/**
 * Concurrent processes of the real binary changing the same configuration: every read-modify-write
 * of apis.json, credentials.json and tokens.json happens under one lock, so no change is lost and a
 * secret is never stored for an origin it was not given for.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, utimesSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from './helpers/build.js';
import { runTool, spawnTool, type ToolResult } from './helpers/run-tool.js';
import { runToolWithInput } from './helpers/tool-with-input.js';
import { makeWorkspace, type Workspace } from './helpers/workspace.js';

let ws: Workspace;

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);
beforeEach(() => {
  ws = makeWorkspace('tool-concurrency-');
});
afterEach(() => ws.remove());

const tool = (args: readonly string[], env?: Record<string, string>) => runTool(args, { cwd: ws.dir, timeoutMs: 60_000, ...(env ? { env } : {}) });
const withInput = (args: readonly string[], input: string) => runToolWithInput(args, { cwd: ws.dir, input, timeoutMs: 60_000 });
const configFile = (name: string) => join(ws.dir, 'config', 'tool', name);
/** A config file as JSON, or `{}` when it does not exist. */
const readJson = (path: string): Record<string, Record<string, Record<string, string>>> => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {});
const expectOk = (result: { code: number | null; stderr: string }) => expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });

/** Every credential belongs to a registered API and was stored for that API's origin. */
function expectConsistent(): void {
  const apis = readJson(configFile('apis.json')).apis ?? {};
  const credentials = readJson(configFile('credentials.json')).credentials ?? {};
  for (const [name, credential] of Object.entries(credentials)) {
    expect({ name, registered: name in apis }).toEqual({ name, registered: true });
    expect({ name, origin: credential.origin }).toEqual({ name, origin: new URL(String(apis[name]?.baseUrl)).origin });
  }
}

/** A token endpoint that holds every request until release() (or until `holdUntil` requests arrived). */
interface GateServer {
  url: string;
  arrived: number;
  waitFor(count: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

async function startGate(holdUntil = Number.POSITIVE_INFINITY): Promise<GateServer> {
  const held: Array<() => void> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let released = false;
  let serial = 0;
  const gate: GateServer = {
    url: '',
    arrived: 0,
    waitFor: (count) => (gate.arrived >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    release: () => {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      serial += 1;
      const token = `tok-${serial}`;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url?.startsWith('/token') ? { access_token: token, token_type: 'Bearer', expires_in: 3600 } : { ok: true }));
      };
      if (!req.url?.startsWith('/token') || released) return answer();
      gate.arrived += 1;
      held.push(answer);
      for (const waiter of waiters.filter((w) => gate.arrived >= w.count)) waiter.resolve();
      if (gate.arrived >= holdUntil) gate.release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gate;
}

describe('configuration files under concurrent processes', () => {
  it('keeps every change of 16 parallel api add, auth login and api remove processes', async () => {
    for (let i = 0; i < 6; i++) expectOk(await tool(['api', 'add', `login${i}`, `http://127.0.0.1:${8100 + i}/v1`]));
    for (let i = 0; i < 4; i++) expectOk(await tool(['api', 'add', `gone${i}`, `http://127.0.0.1:${8200 + i}`]));

    const writers: Array<Promise<{ code: number | null; stderr: string }>> = [];
    for (let i = 0; i < 6; i++) writers.push(tool(['api', 'add', `new${i}`, `http://127.0.0.1:${8300 + i}`]));
    for (let i = 0; i < 3; i++) writers.push(withInput(['auth', 'login', `login${i}`, '--type', 'bearer', '--with-token'], `secret-${i}`));
    for (let i = 3; i < 6; i++) writers.push(tool(['auth', 'login', `login${i}`, '--type', 'bearer', '--token-env', `TOKEN_${i}`]));
    for (let i = 0; i < 4; i++) writers.push(tool(['api', 'remove', `gone${i}`]));
    const results = await Promise.all(writers);
    for (const result of results) expectOk(result);

    const apis = readJson(configFile('apis.json')).apis ?? {};
    expect(Object.keys(apis).sort()).toEqual(['login0', 'login1', 'login2', 'login3', 'login4', 'login5', 'new0', 'new1', 'new2', 'new3', 'new4', 'new5']);
    for (let i = 0; i < 6; i++) expect(apis[`login${i}`]?.auth).toEqual(i < 3 ? { type: 'bearer' } : { type: 'bearer', secretEnv: `TOKEN_${i}` });
    const credentials = readJson(configFile('credentials.json')).credentials ?? {};
    expect(Object.fromEntries(Object.entries(credentials).map(([name, c]) => [name, c.secret]))).toEqual({ login0: 'secret-0', login1: 'secret-1', login2: 'secret-2' });
    expectConsistent();
  }, 120_000);

  it('refuses to store a secret when api add --force moved the API to another origin during the login', async () => {
    const gate = await startGate();
    try {
      expectOk(await tool(['api', 'add', 'svc', 'http://127.0.0.1:8400/v1']));
      const login = withInput(['auth', 'login', 'svc', '--type', 'oauth2-client-credentials', '--token-url', `${gate.url}/token`, '--client-id', 'c', '--client-secret-stdin'], 'client-s3cret');
      await gate.waitFor(1);
      expectOk(await tool(['api', 'add', 'svc', 'http://127.0.0.1:8401/v1', '--force']));
      gate.release();
      const result = await login;
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/svc.*http:\/\/127\.0\.0\.1:8401/);
      expect(result.stderr).toContain('tool auth login svc');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(readJson(configFile('apis.json')).apis?.svc).toEqual({ baseUrl: 'http://127.0.0.1:8401/v1' });
      expect(readJson(configFile('credentials.json')).credentials?.svc).toBeUndefined();
      expect(readJson(join(ws.dir, 'cache', 'tool', 'tokens.json')).tokens?.svc).toBeUndefined();
    } finally {
      gate.release();
      await gate.close();
    }
  }, 60_000);

  it('keeps the tokens of 6 parallel runs that fetch OAuth tokens at the same moment', async () => {
    const gate = await startGate(6);
    try {
      for (let i = 0; i < 6; i++) {
        expectOk(await tool(['api', 'add', `oa${i}`, `${gate.url}/api${i}`]));
        expectOk(await tool(['auth', 'login', `oa${i}`, '--type', 'oauth2-client-credentials', '--token-url', `${gate.url}/token`, '--client-id', 'c', '--client-secret-env', 'CLIENT_SECRET']));
      }
      const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => tool(['get', `oa${i}/things`], { CLIENT_SECRET: 's3cret' })));
      for (const run of runs) expectOk(run);
      const tokens = readJson(join(ws.dir, 'cache', 'tool', 'tokens.json')).tokens ?? {};
      expect(Object.keys(tokens).sort()).toEqual(['oa0', 'oa1', 'oa2', 'oa3', 'oa4', 'oa5']);
    } finally {
      gate.release();
      await gate.close();
    }
  }, 120_000);

  it('waits for a lock another process holds, then makes its change', async () => {
    expectOk(await tool(['api', 'add', 'first', 'http://127.0.0.1:8500']));
    const lock = configFile('.lock');
    mkdirSync(lock);
    const adding = spawnTool(['api', 'add', 'second', 'http://127.0.0.1:8501'], { cwd: ws.dir, timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(Object.keys(readJson(configFile('apis.json')).apis ?? {})).toEqual(['first']);
    rmSync(lock, { recursive: true });
    const result: ToolResult = await adding.result;
    expectOk(result);
    expect(Object.keys(readJson(configFile('apis.json')).apis ?? {})).toEqual(['first', 'second']);
  }, 60_000);

  it('takes over a lock left by a process that died (not refreshed for more than 10 s)', async () => {
    expectOk(await tool(['api', 'add', 'first', 'http://127.0.0.1:8500']));
    const lock = configFile('.lock');
    mkdirSync(lock);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    const result = await tool(['api', 'add', 'second', 'http://127.0.0.1:8501']);
    expectOk(result);
    expect(result.elapsedMs).toBeLessThan(10_000);
    expect(Object.keys(readJson(configFile('apis.json')).apis ?? {})).toEqual(['first', 'second']);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});
