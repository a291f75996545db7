/**
 * `arazzo run --report/--har/--junit`: one JSON report, one HAR 1.2 file and one JUnit XML file
 * per run, each checked against its schema (or parsed), written atomically with mode 0600 even
 * when the run fails, refused before any request when unwritable, and free of every secret.
 */
import { describe, expect, it } from '@jest/globals';
import { DOMParser } from '@xmldom/xmldom';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import type { Routes } from '../e2e/helpers/scripted-server.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const ROOT = new URL('../../', import.meta.url);
const BEARER = 'bearer-Secret-5e1d';
const TRACE = 'trace-Secret-77aa';
/** C1 controls and DEL, which JSON text may carry raw (a CSI colour sequence here): neither stderr nor the files keep them. */
const CSI = '\u009b';
const UNPRINTABLE = /[\u007f-\u009f]/;

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ allErrors: true, strict: false });
(addFormats as unknown as typeof addFormats.default)(ajv);
const validReport = ajv.compile(JSON.parse(readFileSync(new URL('docs/schemas/run-report-v1.schema.json', ROOT), 'utf8')) as object);
const validHar = ajv.compile(JSON.parse(readFileSync(new URL('test/fixtures/reports/har-1.2.schema.json', ROOT), 'utf8')) as object);

/** search finds item 7; the lookup is busy once, then answers (echoing the credential it got); done ends. */
const lookupRoutes = (name = 'Rex'): Routes => ({
  'GET /items': (hit) => ({ body: { items: ['7'], echo: `you sent ${String(hit.headers.authorization)} and ${String(hit.headers['x-trace'])}` } }),
  'GET /items/{id}': [{ status: 503, headers: { 'retry-after': '0' } }, { body: { name, note: `a <b> & "c" ]]> ${CSI}31mred${CSI}0m\u007f` } }],
  'GET /a': { body: { ok: true } },
  'GET /cleanup': {},
});

/** Runs the lookup fixture with the trace input from the environment (a secret) and `args`. */
async function lookup(args: string[], routes = lookupRoutes(), vars = { NAME: 'Rex', BUSY: '$statusCode == 503' }) {
  const file = h.ws.fixture('report-lookup.arazzo.yaml', { BASE_URL: h.server.url, ...vars }, 'lookup.arazzo.yaml');
  h.server.setRoutes(routes);
  return runInWorkspace(['arazzo', 'run', file, '--tool-retry', '0', '--input-env', 'trace=TRACE_VALUE', ...args], { cwd: h.ws.dir, env: { TRACE_VALUE: TRACE } });
}

const read = (name: string) => readFileSync(join(h.ws.dir, name), 'utf8');

async function login(): Promise<void> {
  expect((await h.tool(['api', 'add', 'api', h.server.url, '--force'])).code).toBe(0);
  expect((await runInWorkspace(['auth', 'login', 'api', '--type', 'bearer', '--with-token'], { cwd: h.ws.dir, input: `${BEARER}\n` })).code).toBe(0);
}

interface ReportStep {
  stepId: string;
  ok: boolean;
  status: number;
  reason?: string;
  durationMs?: number;
  transportRetries: unknown[];
  request?: { method: string; url: string; headers: Record<string, string> };
  response?: { status: number; headers: Record<string, unknown>; body?: { text?: string; size: number; truncated: boolean } };
  criteria: Array<{ source: string; holds: boolean | null; comparisons: Array<{ left: string; op?: string; right?: string; holds: boolean | null }> }>;
  actions: Array<{ name: string; type: string; line: string }>;
  explanation?: string[];
  outputs?: Record<string, unknown>;
}

describe('arazzo run --report', () => {
  it('writes one JSON document, valid against its schema, with every step run, its criteria and the actions that fired', async () => {
    await login();
    const result = await lookup(['--report', 'run.json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(read('run.json')) as { reportVersion: number; status: string; workflowId: string; outputs: unknown; steps: ReportStep[]; stepRuns: number };
    expect(validReport.errors ?? []).toEqual([]);
    expect(validReport(report)).toBe(true);
    expect(report).toMatchObject({ reportVersion: 1, status: 'succeeded', workflowId: 'lookup', outputs: { name: 'Rex' }, stepRuns: 4 });
    expect(report.steps.map((s) => [s.stepId, s.status, s.ok])).toEqual([
      ['search', 200, true],
      ['fetch', 503, false],
      ['fetch', 200, true],
      ['done', 200, true],
    ]);
    const [search, busy, fetched, done] = report.steps as [ReportStep, ReportStep, ReportStep, ReportStep];
    expect(search.request).toMatchObject({ method: 'GET', url: `${h.server.url}/items?q=rex` });
    expect(search.request?.headers).toMatchObject({ authorization: '***', 'x-trace': '***' });
    expect(search.outputs).toEqual({ first: '7' });
    expect(busy.reason).toBe('HTTP 503: success criterion `$statusCode == 200` does not hold');
    expect(busy.criteria[0]).toEqual({ source: '$statusCode == 200', kind: 'simple', holds: false, comparisons: [{ source: '$statusCode == 200', left: '503', op: '==', right: '200', holds: false }] });
    expect(busy.actions).toEqual([{ name: 'busy', type: 'retry', criteria: ['$statusCode == 503'], retry: 1, limit: 2, delayMs: 0, line: '↻ retry 1/2 (action "busy": $statusCode == 503)' }]);
    expect(busy.explanation?.[0]).toBe(`  > GET ${h.server.url}/items/7`);
    expect(fetched.criteria[1]?.comparisons[0]).toMatchObject({ left: '"Rex"', op: '==', right: '"Rex"', holds: true });
    expect(fetched.response?.body?.text).toContain('"name":"Rex"');
    expect(typeof fetched.durationMs).toBe('number');
    expect(done.actions.map((a) => a.line)).toEqual(['■ end (action "stop")']);
  });

  it('reports a v2 run the same way', async () => {
    const result = await lookup(['--report', 'v2.json', '--tool-runner', 'v2']);
    expect(result.code).toBe(0);
    const report = JSON.parse(read('v2.json')) as { runner: string; steps: ReportStep[] };
    expect(validReport(report)).toBe(true);
    expect(report.runner).toBe('v2');
    expect(report.steps.map((s) => [s.stepId, s.status, s.actions.map((a) => a.name)])).toEqual([
      ['search', 200, []],
      ['fetch', 503, ['busy']],
      ['fetch', 200, []],
      ['done', 200, ['stop']],
    ]);
  });

  it('keeps each body up to --tool-body-limit, and says it was cut', async () => {
    const result = await lookup(['--report', 'cut.json', '--tool-body-limit', '8']);
    expect(result.code).toBe(0);
    const report = JSON.parse(read('cut.json')) as { steps: ReportStep[] };
    const body = report.steps[2]?.response?.body;
    expect(body?.truncated).toBe(true);
    expect(Buffer.byteLength(body?.text ?? '')).toBeLessThanOrEqual(8);
    expect(body?.size).toBeGreaterThan(8);
  });

  it('records the transport retries of a step run', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--report', 'retries.json'], { 'GET /a': [{ status: 503 }, { status: 200 }] });
    expect(result.code).toBe(0);
    const report = JSON.parse(read('retries.json')) as { steps: Array<{ transportRetries: Array<{ attempt: number; of: number; status: number }> }> };
    expect(validReport(report)).toBe(true);
    expect(report.steps[0]?.transportRetries).toMatchObject([{ attempt: 1, of: 2, status: 503 }]);
  });

  it('is written when the run fails, with the failure, and names no secret', async () => {
    const result = await lookup(['--report', 'failed.json'], lookupRoutes('Max'));
    expect(result.code).toBe(1);
    recordOf(result);
    const text = read('failed.json');
    const report = JSON.parse(text) as { status: string; failure: { code: string; stepId: string; message: string }; steps: ReportStep[] };
    expect(validReport(report)).toBe(true);
    expect(report.status).toBe('failed');
    expect(report.failure).toMatchObject({ code: 'STEP_FAILED', stepId: 'fetch' });
    expect(report.failure.message).toContain('success criterion `$response.body#/name == "Rex"` does not hold');
    expect(text).not.toContain(BEARER);
    expect(text).not.toContain(TRACE);
    expect(text).not.toMatch(UNPRINTABLE);
  });
});

describe('arazzo run --har', () => {
  it('writes HAR 1.2 with one entry per request sent, headers as sent with the credentials as ***', async () => {
    const result = await lookup(['--har', 'run.har']);
    expect(result.code).toBe(0);
    const text = read('run.har');
    const har = JSON.parse(text) as { log: { entries: Array<{ request: { url: string; headers: Array<{ name: string; value: string }> }; response: { status: number; content: { text?: string } }; _stepId: string }> } };
    expect(validHar.errors ?? []).toEqual([]);
    expect(validHar(har)).toBe(true);
    expect(har.log.entries).toHaveLength(h.server.hits.length);
    expect(har.log.entries.map((e) => [e._stepId, e.response.status])).toEqual([
      ['search', 200],
      ['fetch', 503],
      ['fetch', 200],
      ['done', 200],
    ]);
    expect(har.log.entries[0]?.request.headers).toContainEqual({ name: 'authorization', value: '***' });
    expect(har.log.entries[0]?.response.content.text).toContain('"echo":"you sent *** and ***"');
    expect(text).not.toContain(BEARER);
    expect(text).not.toContain(TRACE);
  });
});

describe('arazzo run --junit', () => {
  it('writes well-formed JUnit XML: the workflow a testsuite, each step run a testcase, a failed one a failure with its explanation', async () => {
    const result = await lookup(['--junit', 'junit.xml'], lookupRoutes('Max'));
    expect(result.code).toBe(1);
    const text = read('junit.xml');
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(text, 'text/xml');
    expect(errors).toEqual([]);
    const suite = doc.getElementsByTagName('testsuite')[0];
    expect(suite?.getAttribute('name')).toBe('lookup');
    expect(suite?.getAttribute('tests')).toBe('3');
    // The 503 the retry action absorbed is the first run's output; only the run that failed the workflow is a failure.
    expect(suite?.getAttribute('failures')).toBe('1');
    const cases = Array.from(doc.getElementsByTagName('testcase')).map((c) => c.getAttribute('name'));
    expect(cases).toEqual(['search', 'fetch', 'fetch #2']);
    expect(doc.getElementsByTagName('testcase')[1]?.getElementsByTagName('failure')).toHaveLength(0);
    expect(doc.getElementsByTagName('testcase')[1]?.getElementsByTagName('system-out')[0]?.textContent).toMatch(/^failed, and the run went on \(an Arazzo action absorbed it\): HTTP 503/);
    const failure = doc.getElementsByTagName('testcase')[2]?.getElementsByTagName('failure')[0];
    expect(failure?.getAttribute('message')).toBe('HTTP 200: success criterion `$response.body#/name == "Rex"` does not hold');
    // The explanation as stderr has it: the server's text escaped for XML, its escape sequences and control characters gone.
    expect(failure?.textContent).toContain('$response.body#/name == "Rex"  →  "Max" == "Rex"  false');
    expect(failure?.textContent).toContain('a <b> & \\"c\\" ]]> red');
    expect(text).not.toMatch(UNPRINTABLE);
    expect(text).not.toContain(BEARER);
  });
});

describe('arazzo run --junit after an absorbed retry', () => {
  it('is a pass: no failure, the retried attempt in system-out', async () => {
    const result = await lookup(['--junit', 'junit.xml'], lookupRoutes('Rex'));
    expect(result.code).toBe(0);
    const text = read('junit.xml');
    expect(text).toMatch(/tests="\d+" failures="0" errors="0"/);
    expect(text).toContain('<system-out>failed, and the run went on (an Arazzo action absorbed it): HTTP 503');
  });
});

describe('report files', () => {
  it('are written with mode 0600, by a rename that leaves no temporary file', async () => {
    mkdirSync(join(h.ws.dir, 'out'), { recursive: true });
    const result = await lookup(['--report', 'out/r.json', '--har', 'out/r.har', '--junit', 'out/r.xml']);
    expect(result.code).toBe(0);
    expect(readdirSync(join(h.ws.dir, 'out')).sort()).toEqual(['r.har', 'r.json', 'r.xml']);
    for (const name of ['r.har', 'r.json', 'r.xml']) expect(statSync(join(h.ws.dir, 'out', name)).mode & 0o777).toBe(0o600);
  });

  it('refuses an unwritable path with exit 2 before any request', async () => {
    const missing = await lookup(['--report', 'no/such/folder/r.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot write the --report file no/such/folder/r.json: ENOENT');
    expect(h.server.hits).toHaveLength(0);
    mkdirSync(join(h.ws.dir, 'a-folder.har'), { recursive: true });
    const folder = await lookup(['--har', 'a-folder.har']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('cannot write the --har file a-folder.har: it is a folder');
    expect(h.server.hits).toHaveLength(0);
    const twice = await lookup(['--report', 'same.out', '--junit', './same.out']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('error: --report and --junit both name ./same.out');
    expect(h.server.hits).toHaveLength(0);
  });
});
