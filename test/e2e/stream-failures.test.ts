/**
 * stdout or stderr failing under a command: a full disk (/dev/full), a reader that went away (a
 * closed pipe). A write error never prints a stack trace or changes the exit code; a closed stderr
 * never stops a run; a failed stdout only loses the output.
 */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './helpers/harness.js';
import { INTERNAL_ERROR, NODE_WARNING, parseRecord, STACK_FRAME, trail } from './helpers/record.js';
import type { ToolResult } from './helpers/run-tool.js';
import { spawnWithStdio, type StdioOptions } from './helpers/spawn-with-stdio.js';

const h = useRunHarness();
const REQUESTS = 300;

/** Runs tool in the workspace with the given stdio arrangement. */
function run(args: readonly string[], opts: Omit<StdioOptions, 'cwd'>): Promise<ToolResult> {
  return spawnWithStdio(args, { cwd: h.ws.dir, timeoutMs: 60_000, ...opts }).result;
}

/** No stack trace, no internal error, no Node warning. */
function expectCleanStderr(result: ToolResult): void {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(INTERNAL_ERROR);
  expect(result.stderr).not.toMatch(NODE_WARNING);
}

/** A workflow of `steps` steps, each one GET /echo/<i>. */
function echoDocument(steps: number): string {
  const lines = [
    'arazzo: 1.0.1',
    'info: { title: Many requests, version: 1.0.0 }',
    'sourceDescriptions:',
    '  - { name: api, url: ./api.openapi.yaml, type: openapi }',
    'workflows:',
    '  - workflowId: manyRequests',
    '    steps:',
  ];
  for (let i = 1; i <= steps; i++) lines.push(`      - stepId: s${i}`, '        operationId: echo', `        parameters: [{ name: n, in: path, value: ${i} }]`);
  return `${lines.join('\n')}\n`;
}

describe('stdout that cannot be written', () => {
  it('lets a run on /dev/full send every request and exit 74 (its record was lost), with one line on stderr and no stack trace', async () => {
    const file = h.ws.fixture('state-failure-no-action.arazzo.yaml', { BASE_URL: h.server.url });
    h.server.setRoutes({ 'GET /a': { body: { value: 1 } }, 'GET /b': {}, 'GET /c': {} });
    const result = await run(['arazzo', 'run', file], { stdout: '/dev/full' });
    expect(result.code).toBe(74);
    expectCleanStderr(result);
    expect(result.stderr).toMatch(/^error: cannot write to stdout \(ENOSPC\); the output is incomplete$/m);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/b', '/c']);
  }, 70_000);

  it('keeps the exit code of a failed run on /dev/full (1)', async () => {
    const file = h.ws.fixture('state-failure-no-action.arazzo.yaml', { BASE_URL: h.server.url });
    h.server.setRoutes({ 'GET /a': { body: { value: 1 } }, 'GET /b': { status: 500 } });
    const result = await run(['arazzo', 'run', file, '--tool-retry', '0'], { stdout: '/dev/full' });
    expect(result.code).toBe(1);
    expectCleanStderr(result);
    expect(result.stderr).toMatch(/workflow "stopsOnFailure" failed at step "second"/);
  }, 70_000);

  it('ends tool get on /dev/full with exit 74 and no stack trace', async () => {
    h.server.setRoutes({ 'GET /a': { body: { n: 1 } } });
    const result = await run(['get', `${h.server.url}/a`], { stdout: '/dev/full' });
    expect(result.code).toBe(74);
    expectCleanStderr(result);
    expect(result.stderr).toMatch(/cannot write to stdout \(ENOSPC\)/);
    expect(h.server.count('GET /a')).toBe(1);
  }, 70_000);

  it('ends tool arazzo validate on /dev/full with 74 when valid (its report was lost) and its own 10 when invalid', async () => {
    const valid = h.ws.fixture('state-failure-no-action.arazzo.yaml', { BASE_URL: h.server.url });
    const invalid = h.ws.fixture('invalid-no-workflows.arazzo.yaml');
    const ok = await run(['arazzo', 'validate', valid], { stdout: '/dev/full' });
    expect(ok.code).toBe(74);
    expectCleanStderr(ok);
    const bad = await run(['arazzo', 'validate', invalid], { stdout: '/dev/full' });
    expect(bad.code).toBe(10);
    expectCleanStderr(bad);
  }, 70_000);

  it('keeps the exit code (10) when the reader of stdout went away, silently', async () => {
    const invalid = h.ws.fixture('invalid-no-workflows.arazzo.yaml');
    const result = await run(['arazzo', 'validate', invalid], { stdout: 'pipe', closeStdout: true });
    expect(result.code).toBe(10);
    expectCleanStderr(result);
    expect(result.stderr).not.toMatch(/cannot write to stdout/);
  }, 70_000);

  it('lets a failed run whose stdout reader went away send what it would have and exit 1', async () => {
    const file = h.ws.fixture('state-failure-no-action.arazzo.yaml', { BASE_URL: h.server.url });
    h.server.setRoutes({ 'GET /a': { body: { value: 1 } }, 'GET /b': { status: 500 } });
    const result = await run(['arazzo', 'run', file, '--tool-retry', '0'], { stdout: 'pipe', closeStdout: true });
    expect(result.code).toBe(1);
    expectCleanStderr(result);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/b']);
  }, 70_000);
});

describe('stderr that is closed during a run', () => {
  it(`still sends all ${REQUESTS} requests, prints the whole record on stdout and exits 0`, async () => {
    h.server.setRoutes({ 'GET /echo/{n}': { body: { ok: true } } });
    h.ws.write('many-requests.arazzo.yaml', echoDocument(REQUESTS));
    // The first line on stderr (the unbound-source warning) comes before any request; the progress lines after it fail.
    const result = await run(['arazzo', 'run', 'many-requests.arazzo.yaml'], { stdout: 'pipe', closeStderrOn: /\n/ });
    expect(result.code).toBe(0);
    expect(h.server.hits).toHaveLength(REQUESTS);
    const record = parseRecord(result.stdout);
    expect(record.steps).toHaveLength(REQUESTS);
    expect(trail(record).every((entry, i) => entry === `s${i + 1}:200`)).toBe(true);
  }, 70_000);
});
