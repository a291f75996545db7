/**
 * `tool arazzo test` under load, in-process against a real local HTTP server: --concurrency (runs
 * overlap, never more than N), --repeat (passes, iteration numbers, figures), --duration with
 * --rate (an open model, dropped starts), --threshold verdicts, --shard slices that cover every
 * run once (and the Indexed Job variables), --resume after a cut results file and after Ctrl-C.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace, startInWorkspace } from './run-in-workspace.js';

interface Figures {
  count: number;
  errors: number;
  errorRate: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
}

interface Run {
  file: string;
  workflowId: string | null;
  row?: number;
  iteration?: number;
  status: string;
}

interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  notRun: number;
  resumed?: number;
  dropped?: number;
  shard?: { index: number; total: number };
  runs: Run[];
  stats: { runs: Figures; requests: Figures; workflows: Array<{ file: string; workflowId: string; runs: Figures; steps: Array<{ stepId: string } & Figures> }> };
  thresholds?: Array<{ threshold: string; ok: boolean; actual?: number; message?: string }>;
}

/** A document of `count` workflows, each one GET of `path`. */
function manyWorkflows(count: number, path: 'slow' | 'a'): string {
  const operation = path === 'slow' ? 'getSlow' : 'getA';
  const workflows = Array.from({ length: count }, (_, i) => `  - workflowId: w${i + 1}\n    steps:\n      - { stepId: get, operationId: ${operation}, successCriteria: [ { condition: $statusCode == 200 } ] }\n`).join('');
  return `arazzo: 1.0.1\ninfo: { title: load, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: ./api.openapi.yaml, type: openapi }\nworkflows:\n${workflows}`;
}

describe('tool arazzo test under load', () => {
  const h = useRunHarness();

  beforeAll(() => {
    for (const folder of ['load', 'fast', 'rows', 'slow']) h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, `${folder}/api.openapi.yaml`);
    writeFileSync(join(h.ws.dir, 'load/eight.arazzo.yaml'), manyWorkflows(8, 'slow'));
    writeFileSync(join(h.ws.dir, 'fast/two.arazzo.yaml'), manyWorkflows(2, 'a'));
    writeFileSync(join(h.ws.dir, 'fast/three.arazzo.yaml'), manyWorkflows(3, 'a'));
    h.ws.fixture('suite/rows.arazzo.yaml', {}, 'rows/rows.arazzo.yaml');
    writeFileSync(join(h.ws.dir, 'rows/rows.csv'), ['name,count', ...Array.from({ length: 7 }, (_, i) => `item${i + 1},${i + 1}`)].join('\n'));
    h.ws.fixture('suite/slow.arazzo.yaml', {}, 'slow/slow.arazzo.yaml');
    h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, 'regex/api.openapi.yaml');
    const regexStep = (id: string, pattern: string) => `  - workflowId: ${id}\n    steps:\n      - stepId: get\n        operationId: getA\n        successCriteria: [ { context: $response.body#/token, condition: '${pattern}', type: regex } ]\n`;
    writeFileSync(join(h.ws.dir, 'regex/regex.arazzo.yaml'), `arazzo: 1.0.1\ninfo: { title: regex, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: ./api.openapi.yaml, type: openapi }\nworkflows:\n${regexStep('matches', 't-[0-9]+')}${regexStep('misses', '^nothing$')}`);
  });

  const test = (args: readonly string[], env?: Record<string, string>) => runInWorkspace(['arazzo', 'test', ...args], { cwd: h.ws.dir, timeoutMs: 30_000, ...(env ? { env } : {}) });
  const summaryOf = (stdout: string) => JSON.parse(stdout) as Summary;

  it('runs up to --concurrency runs at once, never more, and each run is its own', async () => {
    h.server.setRoutes({ 'GET /slow': { status: 200, body: {}, delayMs: 200 } });
    const result = await test(['load', '--concurrency', '4']);
    expect(result.code).toBe(0);
    const summary = summaryOf(result.stdout);
    expect(summary.passed).toBe(8);
    expect(new Set(summary.runs.map((run) => run.workflowId))).toEqual(new Set(['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8']));
    // Arrivals: four at once, then four more once the first answers came (200 ms later).
    const at = h.server.hits.map((hit) => hit.at).sort((a, b) => a - b);
    expect(at[3]! - at[0]!).toBeLessThan(150);
    expect(at[4]! - at[0]!).toBeGreaterThanOrEqual(180);
    // Every run's line still comes as it finishes.
    expect(result.stderr.split('\n').filter((line) => line.startsWith('✓ '))).toHaveLength(8);
  });

  it('--repeat makes passes: iteration numbers, figures per workflow and step on stderr and in stats, failures only on stderr', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: { token: 't' }, delayMs: 5 } });
    const result = await test(['fast/two.arazzo.yaml', '--repeat', '3']);
    expect(result.code).toBe(0);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.workflowId, run.iteration])).toEqual([
      ['w1', 1],
      ['w2', 1],
      ['w1', 2],
      ['w2', 2],
      ['w1', 3],
      ['w2', 3],
    ]);
    expect(summary.stats.runs).toMatchObject({ count: 6, errors: 0, errorRate: 0 });
    expect(summary.stats.requests.count).toBe(6);
    expect(summary.stats.workflows.map((w) => [w.workflowId, w.runs.count, w.steps.map((s) => [s.stepId, s.count])])).toEqual([
      ['w1', 3, [['get', 3]]],
      ['w2', 3, [['get', 3]]],
    ]);
    const step = summary.stats.workflows[0]!.steps[0]!;
    expect(step.p50).toBeGreaterThanOrEqual(5);
    expect(step.max).toBeGreaterThanOrEqual(step.p99);
    expect(step.p99).toBeGreaterThanOrEqual(step.p50);
    expect(result.stderr).not.toMatch(/^✓ /m);
    expect(result.stderr).toMatch(/^fast\/two\.arazzo\.yaml › w1 {2}3 runs, 0 errors, p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms, [\d.]+\/s$/m);
    expect(result.stderr).toMatch(/^ {2}get {2}3 requests, 0 errors, p50 /m);
    expect(result.stderr).toMatch(/^6 passed, 0 failed, 0 skipped/m);
    // Each run binds the source anew: its warning is said once, and the repeats counted.
    expect(result.stderr.match(/warning: source "api" is not bound/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/^\(5 repeated warnings not shown\)$/m);
  });

  it('fails the suite (exit 1) when a --threshold does not hold, and says which and by how much', async () => {
    h.server.setRoutes({ 'GET /a': [{ status: 200, body: {}, delayMs: 30 }, { status: 500, body: {} }, { status: 200, body: {}, delayMs: 30 }] });
    const result = await test(['fast/two.arazzo.yaml', '--repeat', '2', '--tool-retry', '0', '--threshold', 'p95<1ms', '--threshold', 'errors<50%', '--threshold', 'w1.get:count>=2', '--threshold', 'nope:p50<1s']);
    expect(result.code).toBe(1);
    const summary = summaryOf(result.stdout);
    expect(summary.thresholds!.map((t) => [t.threshold, t.ok])).toEqual([
      ['p95<1ms', false],
      ['errors<50%', true],
      ['w1.get:count>=2', true],
      ['nope:p50<1s', false],
    ]);
    expect(summary.stats.runs).toMatchObject({ count: 4, errors: 1, errorRate: 0.25 });
    expect(result.stderr).toMatch(/^✗ threshold p95<1ms: p95 was [\d.]+ ms$/m);
    expect(result.stderr).toMatch(/^✓ threshold errors<50%$/m);
    expect(result.stderr).toMatch(/^✗ threshold nope:p50<1s: workflow "nope" did not run$/m);
    // The failed run still has its line under load.
    expect(result.stderr).toMatch(/^✗ fast\/two\.arazzo\.yaml › w2 .*500/m);
  });

  it('refuses a malformed --threshold, --rate, --duration or --concurrency before anything is sent (exit 2)', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} } });
    for (const [flag, value, message] of [
      ['--threshold', 'p95<fast', /--threshold "p95<fast" is not/],
      ['--threshold', 'errors<5ms', /gives errors as a duration/],
      ['--rate', '0/s', /--rate must be runs per second/],
      ['--duration', '10 minutes', /--duration must be a duration/],
      ['--concurrency', '0', /--concurrency must be between 1 and 1000/],
    ] as const) {
      const result = await test(['fast', flag, value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
    expect(h.server.hits).toHaveLength(0);
  });

  it('--duration with --rate starts runs on time (an open model) until the time is up', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} } });
    const result = await test(['fast/two.arazzo.yaml', '--duration', '1s', '--rate', '10/s']);
    expect(result.code).toBe(0);
    const summary = summaryOf(result.stdout);
    // Ten starts a second for a second (the first at once): 10, give or take the timer's slack.
    expect(summary.passed).toBeGreaterThanOrEqual(8);
    expect(summary.passed).toBeLessThanOrEqual(11);
    expect(summary.dropped).toBe(0);
    const gaps = h.server.hits.map((hit) => hit.at).sort((a, b) => a - b).slice(1).map((at, i, all) => at - (i === 0 ? h.server.hits.map((hit) => hit.at).sort((a, b) => a - b)[0]! : all[i - 1]!));
    // Paced, not a burst: no two starts much closer than the 100 ms apart they are due.
    expect(Math.min(...gaps)).toBeGreaterThan(50);
  });

  it('--duration without --rate starts no run once the time is up, even one that waited for a free slot', async () => {
    h.server.setRoutes({ 'GET /slow': { status: 200, body: {}, delayMs: 1000 } });
    const result = await test(['load', '--workflow', 'w1', '--duration', '1500ms']);
    expect(result.code).toBe(0);
    const at = h.server.hits.map((hit) => hit.at).sort((a, b) => a - b);
    // One run at a time, 1 s each: the first at once, the second at 1 s; the third would start at 2 s, past the 1.5 s.
    expect(at).toHaveLength(2);
    expect(summaryOf(result.stdout).passed).toBe(2);
  });

  it('a remote description that could not be fetched for one run is fetched again for the next (the suite keeps no failure)', async () => {
    const spec = `openapi: 3.0.3\ninfo: { title: remote, version: 1.0.0 }\nservers:\n  - url: '${h.server.url}'\npaths:\n  /a:\n    get: { operationId: getA, responses: { '200': { description: ok } } }\n`;
    h.server.setRoutes({ 'GET /remote.yaml': [{ status: 404, body: 'not yet' }, { status: 200, body: spec, headers: { 'content-type': 'application/yaml' } }], 'GET /a': { status: 200, body: {} } });
    writeFileSync(join(h.ws.dir, 'remote.arazzo.yaml'), `arazzo: 1.0.1\ninfo: { title: remote, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: '${h.server.url}/remote.yaml', type: openapi }\nworkflows:\n  - workflowId: w\n    steps:\n      - { stepId: get, operationId: getA, successCriteria: [ { condition: $statusCode == 200 } ] }\n`);
    const result = await test(['remote.arazzo.yaml', '--repeat', '3'], { TOOL_CACHE_TTL: '0' });
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.iteration, run.status])).toEqual([
      [1, 'failed'],
      [2, 'passed'],
      [3, 'passed'],
    ]);
    expect(h.server.hits.filter((hit) => hit.path === '/remote.yaml')).toHaveLength(2);
  });

  it('--rate drops a start that finds --concurrency runs in flight, and counts it', async () => {
    h.server.setRoutes({ 'GET /slow': { status: 200, body: {}, delayMs: 400 } });
    const result = await test(['load', '--workflow', 'w1', '--duration', '500ms', '--rate', '20/s', '--concurrency', '1']);
    expect(result.code).toBe(0);
    const summary = summaryOf(result.stdout);
    expect(summary.passed).toBeGreaterThanOrEqual(1);
    expect(summary.passed).toBeLessThanOrEqual(2);
    expect(summary.dropped).toBeGreaterThan(3);
    expect(result.stderr).toMatch(/\d+ dropped/);
  });

  it('--shard i/n slices documents, workflows and rows so that the shards cover every run once', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} }, 'POST /items': { status: 201, body: {} } });
    const seen: string[] = [];
    for (const shard of ['1/3', '2/3', '3/3']) {
      const suite = summaryOf((await test(['fast', '--shard', shard])).stdout);
      const rows = summaryOf((await test(['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/rows.csv', '--shard', shard])).stdout);
      expect(suite.shard).toEqual({ index: Number(shard[0]), total: 3 });
      seen.push(...[...suite.runs, ...rows.runs].map((run) => `${run.file} ${run.workflowId} ${run.row ?? ''}`));
    }
    const all = [...['w1', 'w2'].map((w) => `fast/two.arazzo.yaml ${w} `), ...['w1', 'w2', 'w3'].map((w) => `fast/three.arazzo.yaml ${w} `), ...Array.from({ length: 7 }, (_, i) => `rows/rows.arazzo.yaml addItem ${i + 1}`)];
    expect([...seen].sort()).toEqual([...all].sort());
  });

  it('takes the shard from JOB_COMPLETION_INDEX and TOOL_SHARD_TOTAL, and refuses shards that do not exist (exit 2)', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} } });
    const byEnv = summaryOf((await test(['fast'], { JOB_COMPLETION_INDEX: '1', TOOL_SHARD_TOTAL: '3' })).stdout);
    const byFlag = summaryOf((await test(['fast', '--shard', '2/3'])).stdout);
    expect(byEnv.shard).toEqual({ index: 2, total: 3 });
    expect(byEnv.runs.map((run) => run.workflowId)).toEqual(byFlag.runs.map((run) => run.workflowId));
    const alone = await test(['fast'], { JOB_COMPLETION_INDEX: '1' });
    expect(summaryOf(alone.stdout).shard).toBeUndefined();
    const before = h.server.hits.length;
    const three = await test(['fast', '--shard', '3/2']);
    expect(three.code).toBe(2);
    expect(three.stderr).toMatch(/--shard 3\/2: the shard must be from 1 to the number of shards/);
    const noIndex = await test(['fast'], { TOOL_SHARD_TOTAL: '4' });
    expect(noIndex.code).toBe(2);
    expect(noIndex.stderr).toMatch(/TOOL_SHARD_TOTAL=4 is set, but JOB_COMPLETION_INDEX is not set/);
    expect(h.server.hits.length).toBe(before);
  });

  it('--resume runs only the rows a cut results file does not hold, and appends them after its whole lines', async () => {
    h.server.setRoutes({ 'POST /items': { status: 201, body: {} } });
    const results = join(h.ws.dir, 'resume.jsonl');
    expect((await test(['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/rows.csv', '--results', 'resume.jsonl'])).code).toBe(0);
    // A run killed while writing its fourth line: three whole lines and half of one.
    const lines = readFileSync(results, 'utf8').split('\n');
    writeFileSync(results, `${lines.slice(0, 3).join('\n')}\n${lines[3]!.slice(0, 20)}`);
    h.server.setRoutes({ 'POST /items': { status: 201, body: {} } });
    const resumed = await test(['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/rows.csv', '--resume', 'resume.jsonl']);
    expect(resumed.code).toBe(0);
    const summary = summaryOf(resumed.stdout);
    expect(summary.runs.map((run) => run.row)).toEqual([4, 5, 6, 7]);
    expect(summary.resumed).toBe(3);
    expect(h.server.hits).toHaveLength(4);
    expect(resumed.stderr).toMatch(/^4 passed, 0 failed, 0 skipped, 3 already done/m);
    const after = readFileSync(results, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Run);
    expect(after.map((run) => run.row)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('--resume keeps a last line written whole but for its newline (the run it records is done), and writes after it', async () => {
    h.server.setRoutes({ 'POST /items': { status: 201, body: {} } });
    const results = join(h.ws.dir, 'no-newline.jsonl');
    expect((await test(['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/rows.csv', '--results', 'no-newline.jsonl'])).code).toBe(0);
    const lines = readFileSync(results, 'utf8').split('\n');
    writeFileSync(results, lines.slice(0, 4).join('\n'));
    h.server.setRoutes({ 'POST /items': { status: 201, body: {} } });
    const resumed = await test(['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/rows.csv', '--resume', 'no-newline.jsonl']);
    expect(summaryOf(resumed.stdout).runs.map((run) => run.row)).toEqual([5, 6, 7]);
    const after = readFileSync(results, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Run);
    expect(after.map((run) => run.row)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('after Ctrl-C, --resume goes on with the run that was interrupted and those never started', async () => {
    h.server.setRoutes({ 'GET /slow': { status: 200, body: {}, delayMs: 5_000 }, 'GET /a': { status: 200, body: {} } });
    const started = startInWorkspace(['arazzo', 'test', 'slow', '--results', 'ctrl-c.jsonl'], h.ws.dir);
    while (h.server.hits.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    started.controller.abort();
    expect(await started.exit).toBe(130);
    h.server.setRoutes({ 'GET /slow': { status: 200, body: {} }, 'GET /a': { status: 200, body: {} } });
    const resumed = await test(['slow', '--resume', 'ctrl-c.jsonl']);
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed.stdout).runs.map((run) => run.workflowId)).toEqual(['waits', 'after']);
    const lines = readFileSync(join(h.ws.dir, 'ctrl-c.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as Run).workflowId)).toEqual(['waits', 'after']);
  });

  it('--results naming the --resume file another way (./file) still appends to it, never empties it', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} } });
    writeFileSync(join(h.ws.dir, 'same.jsonl'), `${JSON.stringify({ file: 'fast/two.arazzo.yaml', workflowId: 'w1', status: 'passed', durationMs: 1 })}\n`);
    const resumed = await test(['fast/two.arazzo.yaml', '--resume', 'same.jsonl', '--results', './same.jsonl']);
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed.stdout).runs.map((run) => run.workflowId)).toEqual(['w2']);
    const lines = readFileSync(join(h.ws.dir, 'same.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as Run).workflowId)).toEqual(['w1', 'w2']);
  });

  it('--resume of a --repeat run goes on with the passes after those the results file holds whole', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} } });
    expect((await test(['fast/two.arazzo.yaml', '--repeat', '3', '--results', 'passes.jsonl'])).code).toBe(0);
    const lines = readFileSync(join(h.ws.dir, 'passes.jsonl'), 'utf8').trim().split('\n');
    // Stopped during the second pass: the first pass and w1 of the second were written.
    writeFileSync(join(h.ws.dir, 'passes.jsonl'), `${lines.slice(0, 3).join('\n')}\n`);
    const resumed = await test(['fast/two.arazzo.yaml', '--repeat', '3', '--resume', 'passes.jsonl']);
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed.stdout).runs.map((run) => [run.workflowId, run.iteration])).toEqual([
      ['w2', 2],
      ['w1', 3],
      ['w2', 3],
    ]);
    expect(summaryOf(resumed.stdout).resumed).toBe(3);
  });

  it('tests regex criteria of runs in flight together through the suite\'s one regex worker', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: { token: 't-42' }, delayMs: 20 } });
    const result = await test(['regex', '--repeat', '4', '--concurrency', '4', '--tool-runner', 'v2']);
    expect(result.code).toBe(1);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.filter((run) => run.workflowId === 'matches').map((run) => run.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(summary.runs.filter((run) => run.workflowId === 'misses').map((run) => run.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
  });

  it('refuses a --resume file that cannot be read (exit 2), running nothing', async () => {
    h.server.setRoutes({ 'GET /a': { status: 200, body: {} } });
    const result = await test(['fast', '--resume', 'no-such.jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--resume no-such\.jsonl: cannot read the file \(ENOENT\)/);
    expect(h.server.hits).toHaveLength(0);
  });
});
