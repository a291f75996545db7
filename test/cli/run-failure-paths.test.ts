/**
 * Output hygiene on every path: a run that started prints exactly one JSON record on stdout
 * (partial on failure); a run that never started prints nothing on stdout; stderr never holds a
 * stack trace nor calls a user's mistake an internal error.
 */
import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { INTERNAL_ERROR, parseRecord, STACK_FRAME } from '../e2e/helpers/record.js';
import type { Routes } from '../e2e/helpers/scripted-server.js';
import { useRunHarness, type RunHarness } from './run-harness.js';
import type { WorkspaceResult as ToolResult } from './run-in-workspace.js';

const h = useRunHarness();

/** A loopback port that nothing listens on (it was just free). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function expectCleanStderr(result: ToolResult): void {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(INTERNAL_ERROR);
}

type Scenario = [name: string, fixture: string, args: string[], routes: Routes, code: number];

// Most paths are covered where their behaviour is tested (every record there goes through
// recordOf/expectNoRun, which check the same invariants); these are the ones found nowhere else.
const STARTED: Scenario[] = [
  ['a JSON content type with a body that is not JSON', 'body-shapes.arazzo.yaml', [], { 'GET /a': { body: '{not json', headers: { 'content-type': 'application/json' } } }, 1],
  ['an empty JSON body', 'body-shapes.arazzo.yaml', [], { 'GET /a': { body: '', headers: { 'content-type': 'application/json' } } }, 1],
  ['a binary body', 'body-shapes.arazzo.yaml', [], { 'GET /a': { body: '\u0000\u0001', headers: { 'content-type': 'application/octet-stream' } } }, 1],
  ['a 204 without a body', 'body-shapes.arazzo.yaml', [], { 'GET /a': { status: 204 } }, 1],
  ['a request timeout', 'option-slow.arazzo.yaml', ['--tool-timeout', '0.2', '--tool-retry', '0'], { 'GET /slow': { delayMs: 1000 } }, 1],
  ['a dry run', 'state-dry-run.arazzo.yaml', ['--dry-run'], {}, 0],
];

const NOT_STARTED: Scenario[] = [
  ['an unknown flag', 'option-inputs.arazzo.yaml', ['--no-such-flag'], {}, 2],
  ['a bad --tool-max-steps', 'option-inputs.arazzo.yaml', ['--tool-max-steps', 'many'], {}, 2],
  ['a bad --output', 'option-inputs.arazzo.yaml', ['--output', 'xml'], {}, 2],
  ['a bad --tool-timeout', 'option-inputs.arazzo.yaml', ['--tool-timeout', 'soon'], {}, 2],
];

function run(harness: RunHarness, [, fixture, args, routes]: Scenario): Promise<ToolResult> {
  return harness.run(fixture, args, routes, { vars: { REFERENCE: '$components.failureActions.missing' } });
}

describe('arazzo run: stdout carries exactly one record on every path that started a run', () => {
  it.each(STARTED)('after %s', async (...scenario) => {
    const result = await run(h, scenario);
    expect(result.code).toBe(scenario[4]);
    expect(parseRecord(result.stdout).workflowId).not.toBe('');
    expectCleanStderr(result);
    if (result.code !== 0) expect(result.stderr).toMatch(/^error: workflow "[^"]+" failed/m);
  });
});

describe('arazzo run: stdout stays empty when the run never started', () => {
  it.each(NOT_STARTED)('on %s', async (...scenario) => {
    const result = await run(h, scenario);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: scenario[4], stdout: '' });
    expect(result.stderr).not.toBe('');
    expectCleanStderr(result);
    expect(h.server.hits).toHaveLength(0);
  });
});

describe('arazzo run: source descriptions that cannot be loaded', () => {
  it('exits 2 (not an internal error) when a source description file is missing, before any request', async () => {
    const result = await h.run('source-location.arazzo.yaml', [], { 'GET /a': {} }, { vars: { SOURCE_URL: './no-such.openapi.yaml' } });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('no-such.openapi.yaml');
    expectCleanStderr(result);
  });

  it('exits 2 (not an internal error) when a source description URL cannot be fetched', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api.openapi.yaml`;
    const result = await h.run('source-location.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': {} }, { vars: { SOURCE_URL: url } });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain(url);
    expectCleanStderr(result);
  });

  it('exits 2 (not an internal error) when a source description URL answers 404', async () => {
    const url = `${h.server.url}/missing.openapi.yaml`;
    const result = await h.run('source-location.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': {} }, { vars: { SOURCE_URL: url } });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('404');
    expectCleanStderr(result);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/missing.openapi.yaml']);
  });

  it('fetches a description over http and resolves its relative server URL against it', async () => {
    const description = ['openapi: 3.0.3', 'info: { title: Served, version: 1.0.0 }', 'servers: [{ url: /v2 }]', 'paths:', '  /a:', '    get: { operationId: getA, responses: { "200": { description: ok } } }', ''].join('\n');
    const routes = { 'GET /specs/api.yaml': { body: description, headers: { 'content-type': 'application/yaml' } }, 'GET /v2/a': { body: { n: 4 } } };
    const result = await h.run('source-location.arazzo.yaml', [], routes, { vars: { SOURCE_URL: `${h.server.url}/specs/api.yaml` } });
    expect(result.code).toBe(0);
    expect(parseRecord(result.stdout).outputs).toEqual({ n: 4 });
    expect(h.server.count('GET /specs/api.yaml')).toBe(1);
    expect(h.server.count('GET /v2/a')).toBe(1);
  });

  it('fails the step with status 0 and a one-line reason when its server refuses the connection', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    h.ws.fixture('api.openapi.yaml', { BASE_URL: closed }, 'refused/api.openapi.yaml');
    h.ws.fixture('transport-get.arazzo.yaml', {}, 'refused/flow.arazzo.yaml');
    const result = await h.tool(['arazzo', 'run', 'refused/flow.arazzo.yaml', '--tool-retry', '0']);
    expect(result.code).toBe(1);
    expect(parseRecord(result.stdout).steps).toEqual([{ stepId: 'fetch', status: 0, dryRun: false, outputs: {} }]);
    expect(result.stderr).toMatch(/failed at step "fetch": .*refused/);
    expectCleanStderr(result);
  });
});
