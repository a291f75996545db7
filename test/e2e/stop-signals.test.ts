/**
 * SIGTERM and SIGHUP stop a command as Ctrl-C (SIGINT) does: a run prints its partial record and
 * completes its trace, a request in flight or a login waiting for a browser ends cleanly, and the
 * exit code is 128 + the signal's number (SIGINT 130, SIGTERM 143, SIGHUP 129).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './helpers/harness.js';
import { INTERNAL_ERROR, NODE_WARNING, recordOf, STACK_FRAME, trail } from './helpers/record.js';
import { spawnTool, type ToolResult } from './helpers/run-tool.js';
import type { ScriptedServer } from './helpers/scripted-server.js';

const h = useRunHarness();

/** Resolves once the server has seen a request to `path`. */
async function requestArrived(server: ScriptedServer, path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.hits.some((hit) => hit.path === path)) {
    if (Date.now() > deadline) throw new Error(`no request to ${path} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectCleanStderr(result: ToolResult): void {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(INTERNAL_ERROR);
  expect(result.stderr).not.toMatch(NODE_WARNING);
}

const SIGNALS: Array<[NodeJS.Signals, number]> = [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
];

describe('arazzo run stopped by a signal', () => {
  it.each(SIGNALS)('on %s exits %i with the partial record and a complete trace', async (signal, code) => {
    const trace = `trace-${signal}.ndjson`;
    const run = h.start('interrupt.arazzo.yaml', ['--tool-retry', '0', '--trace', trace], {
      'GET /a': { body: { n: 1 } },
      'GET /slow': { delayMs: 10_000 },
      'GET /b': {},
    });
    await requestArrived(h.server, '/slow');
    run.child.kill(signal);
    const result = await run.result;
    expect({ code: result.code, signal: result.signal }).toEqual({ code, signal: null });
    const record = recordOf(result);
    expect(record.outputs).toEqual({});
    expect(trail(record)).toEqual(['quick:200']);
    expect(result.stderr).toMatch(/interrupted: workflow "interrupted" stopped/);
    expectCleanStderr(result);

    const lines = readFileSync(join(h.ws.dir, trace), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'start', workflowId: 'interrupted' });
    // The abandoned request may or may not get its own line (status 0); no other step got an answer.
    const answered = lines.filter((line) => line.type === 'step' && line.status !== 0);
    expect(answered.map((line) => [line.stepId, line.status])).toEqual([['quick', 200]]);
    expect(lines.at(-1)).toMatchObject({ type: 'end', status: 'interrupted', records: 1 });
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/slow']);
  }, 40_000);
});

describe('other commands stopped by SIGTERM', () => {
  it('ends tool get with a request in flight: exit 143, one line, nothing on stdout', async () => {
    h.server.setRoutes({ 'GET /slow': { delayMs: 10_000, body: { late: true } } });
    const get = spawnTool(['get', `${h.server.url}/slow`], { cwd: h.ws.dir, timeoutMs: 30_000 });
    await requestArrived(h.server, '/slow');
    get.child.kill('SIGTERM');
    const result = await get.result;
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 143, stdout: '' });
    expect(result.stderr).toMatch(/^error: interrupted; the request was abandoned$/m);
    expectCleanStderr(result);
  }, 40_000);

  it('ends tool auth login waiting for the browser: exit 143 and nothing stored', async () => {
    h.server.setRoutes({});
    const home = { cwd: h.ws.dir, timeoutMs: 30_000 };
    expect((await spawnTool(['api', 'add', 'sso', h.server.url], home).result).code).toBe(0);
    const login = spawnTool(
      ['auth', 'login', 'sso', '--type', 'oauth2-authorization-code', '--authorize-url', `${h.server.url}/authorize`, '--token-url', `${h.server.url}/token`, '--client-id', 'tool-test', '--no-browser'],
      home,
    );
    await login.waitForStderr('Waiting for the browser');
    login.child.kill('SIGTERM');
    const result = await login.result;
    expect(result.code).toBe(143);
    expect(result.stderr).toMatch(/^error: login interrupted$/m);
    expectCleanStderr(result);
    const status = await spawnTool(['auth', 'status', 'sso'], home).result;
    expect(status.stdout + status.stderr).toMatch(/sso: no auth configured/);
  }, 40_000);
});
