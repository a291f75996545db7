/**
 * The report files at the edges of a run: an interrupted run writes them (the step in flight
 * included), a dry run reports its steps as skipped, and a run that stops before its first
 * request (an invalid document, a missing input, an unknown API) writes them with its error.
 */
import { describe, expect, it } from '@jest/globals';
import { DOMParser } from '@xmldom/xmldom';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { useRunHarness } from './run-harness.js';
import { startInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ allErrors: true, strict: false });
(addFormats as unknown as typeof addFormats.default)(ajv);
const validReport = ajv.compile(JSON.parse(readFileSync(new URL('../../docs/schemas/run-report-v1.schema.json', import.meta.url), 'utf8')) as object);

const read = (name: string) => readFileSync(join(h.ws.dir, name), 'utf8');

describe('report files at the edges of a run', () => {
  it('are written for an interrupted run, with the request that was in flight', async () => {
    const file = h.ws.fixture('interrupt.arazzo.yaml', { BASE_URL: h.server.url });
    h.server.setRoutes({ 'GET /a': { body: { n: 2 } }, 'GET /slow': { delayMs: 30_000 }, 'GET /b': {} });
    const { exit: pending, controller } = startInWorkspace(['arazzo', 'run', file, '--tool-retry', '0', '--report', 'stopped.json', '--junit', 'stopped.xml', '--har', 'stopped.har'], h.ws.dir);
    while (!h.server.hits.some((hit) => hit.path === '/slow')) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await pending).toBe(130);
    const report = JSON.parse(read('stopped.json')) as { status: string; steps: Array<{ stepId: string; status: number; reason?: string }> };
    expect(report.status).toBe('interrupted');
    expect(report.steps.map((s) => [s.stepId, s.status])).toEqual([
      ['quick', 200],
      ['slow', 0],
    ]);
    expect(report.steps[1]?.reason).toMatch(/^aborted: GET /);
    const junit = new DOMParser().parseFromString(read('stopped.xml'), 'text/xml');
    expect(junit.getElementsByTagName('error')[0]?.getAttribute('type')).toBe('INTERRUPTED');
    const har = JSON.parse(read('stopped.har')) as { log: { entries: Array<{ response: { status: number; _error?: string } }> } };
    expect(har.log.entries.map((e) => e.response.status)).toEqual([200, 0]);
    expect(har.log.entries[1]?.response._error).toMatch(/^aborted: GET /);
  });

  it('report a dry run: each step with its request, skipped in JUnit, and no HAR entry', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--dry-run', '--report', 'dry.json', '--junit', 'dry.xml', '--har', 'dry.har'], { 'GET /a': {} });
    expect(result.code).toBe(0);
    const report = JSON.parse(read('dry.json')) as { steps: Array<{ dryRun: boolean; request: { url: string } }> };
    expect(report.steps).toMatchObject([{ dryRun: true, request: { url: `${h.server.url}/a` } }]);
    expect(read('dry.xml')).toContain('<skipped message="dry run: nothing was sent"/>');
    expect((JSON.parse(read('dry.har')) as { log: { entries: unknown[] } }).log.entries).toEqual([]);
    expect(h.server.hits).toHaveLength(0);
  });

  it('are written when a flag\'s value stops the run before it starts (an unset --input-env variable), run and replay alike; the error printed is unchanged', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--input-env', 'token=TOOL_TEST_UNSET_VARIABLE', '--report', 'flag.json', '--junit', 'flag.xml'], { 'GET /a': {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('TOOL_TEST_UNSET_VARIABLE');
    const report = JSON.parse(read('flag.json')) as { status: string; error: { code: string; message: string } };
    expect(validReport(report)).toBe(true);
    expect(report.status).toBe('usage-error');
    expect(report.error.message).toContain('TOOL_TEST_UNSET_VARIABLE');
    expect(read('flag.xml')).toContain('<error');
    const replayed = await h.tool(['arazzo', 'replay', 'transport-get.arazzo.yaml', '--from', 'missing.har', '--report', 'replay.json']);
    expect(replayed.code).toBe(2);
    expect((JSON.parse(read('replay.json')) as { status: string }).status).toBe('usage-error');
    expect(h.server.hits).toHaveLength(0);
  });

  it('are written for an invalid document (exit 10): the status, the error with its findings, a JUnit error, an empty HAR', async () => {
    const result = await h.run('invalid-unknown-operation.arazzo.yaml', ['--report', 'invalid.json', '--junit', 'invalid.xml', '--har', 'invalid.har']);
    expect(result.code).toBe(10);
    const report = JSON.parse(read('invalid.json')) as { status: string; workflowId: string; steps: unknown[]; error: { code: string; message: string; findings: Array<{ code: string; severity: string; file: string; line: number }> } };
    expect(validReport(report)).toBe(true);
    expect(report).toMatchObject({ status: 'invalid-document', workflowId: 'typo', steps: [], error: { code: 'INVALID_DOCUMENT' } });
    expect(report.error.message).toMatch(/is not a valid workflow document \(1 error\); nothing was sent$/);
    expect(report.error.findings).toEqual([expect.objectContaining({ code: 'OPERATION_NOT_FOUND', severity: 'error', line: 11 })]);
    const junit = new DOMParser().parseFromString(read('invalid.xml'), 'text/xml');
    const testcases = junit.getElementsByTagName('testcase');
    expect(testcases).toHaveLength(1);
    expect(testcases[0]?.getAttribute('name')).toBe('workflow typo');
    const error = junit.getElementsByTagName('error')[0];
    expect(error?.getAttribute('type')).toBe('INVALID_DOCUMENT');
    expect(error?.textContent).toContain('OPERATION_NOT_FOUND');
    expect(junit.getElementsByTagName('testsuites')[0]?.getAttribute('errors')).toBe('1');
    expect((JSON.parse(read('invalid.har')) as { log: { entries: unknown[] } }).log.entries).toEqual([]);
    expect(readdirSync(h.ws.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('are written for a missing required input (exit 2), with the error', async () => {
    const result = await h.run('v2-inputs.arazzo.yaml', ['--tool-runner', 'v2', '--input', 'verbose=true', '--report', 'usage.json', '--junit', 'usage.xml']);
    expect(result.code).toBe(2);
    expect(h.server.hits).toHaveLength(0);
    const report = JSON.parse(read('usage.json')) as { status: string; workflowId: string; error: { code: string; message: string } };
    expect(validReport(report)).toBe(true);
    expect(report).toMatchObject({ status: 'usage-error', workflowId: 'main', error: { code: 'INVALID_INPUTS' } });
    expect(report.error.message).toContain('input "petId" is required by workflow "main"');
    const junit = new DOMParser().parseFromString(read('usage.xml'), 'text/xml');
    expect(junit.getElementsByTagName('testcase')[0]?.getAttribute('name')).toBe('workflow main');
    expect(junit.getElementsByTagName('error')[0]?.getAttribute('message')).toContain('input "petId" is required');
  });

  it('are written when a source is bound to an unknown API (exit 2)', async () => {
    const result = await h.run('binding-x-tool-api.arazzo.yaml', ['--report', 'unbound.json', '--junit', 'unbound.xml']);
    expect(result.code).toBe(2);
    const report = JSON.parse(read('unbound.json')) as { status: string; error: { code: string } };
    expect(validReport(report)).toBe(true);
    expect(report).toMatchObject({ status: 'usage-error', error: { code: 'UNKNOWN_API' } });
    expect(read('unbound.xml')).toContain('type="UNKNOWN_API"');
  });

  it('are not written when a report path itself is bad (exit 2 before anything), and leave no temporary file', async () => {
    const result = await h.run('invalid-unknown-operation.arazzo.yaml', ['--report', 'never.json', '--har', 'missing-folder/never.har']);
    expect(result.code).toBe(2);
    expect(existsSync(join(h.ws.dir, 'never.json'))).toBe(false);
    expect(readdirSync(h.ws.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
