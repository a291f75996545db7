/**
 * `tool arazzo merge-reports` over the files of real sharded runs: three `tool arazzo test
 * --shard i/3` processes of the real binary at once over a folder of documents (three passes), and
 * three more over the rows of a --data file, against a real local HTTP server; then the merge
 * covers every run once, recomputes p50 from the shards' histograms, reports duplicates, and
 * refuses what is not a shard's file.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';
import { ensureBuilt } from '../e2e/helpers/build.js';
import { runTool } from '../e2e/helpers/run-tool.js';
import { addStatsData, statsFigures, SuiteLatency, type StatsData } from '../../src/suite/latency.js';

const ROWS = 10;
/** The rows whose name is "bad" get a 500, and fail. */
const BAD_ROWS = [4, 9];

interface Merged {
  passed: number;
  failed: number;
  skipped: number;
  duplicates: number;
  shards: Array<{ index: number; total: number }>;
  documents: string[];
  inputs: { reports: number; results: number; junit: number };
  stats: { runs: { count: number; p50: number }; workflows: Array<{ file: string; workflowId: string; runs: { count: number; p50: number } }> };
  failures: Array<{ file: string; workflowId: string; row?: number }>;
}

/** Every (suite, testcase) of a JUnit file, the XML checked well-formed. */
function junitCases(text: string): string[] {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(text, 'text/xml');
  expect(errors).toEqual([]);
  return Array.from(doc.getElementsByTagName('testcase')).map((c) => `${(c.parentNode as unknown as { getAttribute(name: string): string | null }).getAttribute('name')} › ${c.getAttribute('name')}`);
}

describe('tool arazzo merge-reports', () => {
  const h = useRunHarness();
  const read = (name: string) => readFileSync(join(h.ws.dir, name), 'utf8');
  const merge = (...args: string[]) => runInWorkspace(['arazzo', 'merge-reports', ...args], { cwd: h.ws.dir, timeoutMs: 30_000 });

  beforeAll(async () => {
    for (const folder of ['flows', 'rows']) h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, `${folder}/api.openapi.yaml`);
    h.ws.fixture('suite/orders.arazzo.yaml', {}, 'flows/orders.arazzo.yaml');
    h.ws.fixture('suite/search.arazzo.yaml', {}, 'flows/search.arazzo.yaml');
    h.ws.fixture('suite/rows.arazzo.yaml', {}, 'rows/rows.arazzo.yaml');
    const names = Array.from({ length: ROWS }, (_, i) => (BAD_ROWS.includes(i + 1) ? 'bad' : `item${i + 1}`));
    h.ws.write('rows/items.csv', `name,count\n${names.map((name, i) => `${name},${i}`).join('\n')}\n`);
    mkdirSync(join(h.ws.dir, 'shards'));
    h.server.setRoutes({
      'GET /a': { status: 200, body: { token: 't-1' } },
      'GET /b': { status: 404, body: {} },
      'GET /items': { status: 200, body: [] },
      'GET /items/{id}': { status: 200, body: {} },
      'POST /items': (hit) => ((JSON.parse(hit.body) as { name: string }).name === 'bad' ? { status: 500, body: {} } : { status: 201, body: {} }),
    });
    await ensureBuilt();
    const shard = (name: string, i: number, args: string[]) =>
      runTool(['arazzo', 'test', ...args, '--shard', `${i}/3`, '--report', `shards/${name}-${i}.json`, '--results', `shards/${name}-${i}.jsonl`, '--junit', `shards/${name}-${i}.xml`], { cwd: h.ws.dir, timeoutMs: 60_000 });
    // The real binary, three processes at once per suite: what a CI matrix or an Indexed Job runs.
    const flows = await Promise.all([1, 2, 3].map((i) => shard('flows', i, ['flows', '--repeat', '3', '--input', 'itemId=7'])));
    const rows = await Promise.all([1, 2, 3].map((i) => shard('rows', i, ['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/items.csv'])));
    // A shard without a failing run passes: exit 0 or 1, never a usage error.
    for (const result of [...flows, ...rows]) expect([0, 1]).toContain(result.code);
  }, 180_000);

  const expectedCases = () => [
    ...['smokeA', 'smokeB', 'itemById'].flatMap((id) => [1, 2, 3].map((pass) => `flows/orders.arazzo.yaml › ${id} #${pass}`)),
    ...[1, 2, 3].map((pass) => `flows/search.arazzo.yaml › searchItems #${pass}`),
    ...Array.from({ length: ROWS }, (_, i) => `rows/rows.arazzo.yaml › addItem [row ${i + 1}]`),
  ];

  it('merges the shards of a folder into one report that covers every run exactly once', async () => {
    const result = await merge('shards', '--report', 'merged.json', '--junit', 'merged.xml', '--html', 'merged.html');
    expect(result.code).toBe(1);
    const merged = JSON.parse(result.stdout) as Merged;
    // 12 runs of the flows (4 workflows, 3 passes; smokeB fails) and 10 rows (2 fail).
    expect(merged).toMatchObject({ passed: 9 + 8, failed: 3 + 2, skipped: 0, duplicates: 0, inputs: { reports: 6, results: 6, junit: 6 } });
    expect(merged.shards).toHaveLength(6);
    expect(new Set(merged.documents)).toEqual(new Set(['flows/orders.arazzo.yaml', 'flows/search.arazzo.yaml', 'rows/rows.arazzo.yaml']));
    expect(merged.failures.filter((f) => f.row !== undefined).map((f) => f.row).sort()).toEqual(BAD_ROWS);
    expect(result.stderr).toMatch(/^17 passed, 5 failed, 0 skipped \(6 shards, 3 documents, \d+ ms\)$/m);
    expect(result.stderr).not.toMatch(/warning/);

    const cases = junitCases(read('merged.xml'));
    expect([...cases].sort()).toEqual(expectedCases().sort());
    expect(JSON.parse(read('merged.json'))).toMatchObject({ format: 'tool-suite-report/1', passed: 17, failed: 5 });
    expect(read('merged.html')).toContain('<title>tool arazzo test: 17 passed, 5 failed, 0 skipped</title>');
  });

  it("recomputes the percentiles from the shards' histograms added together, and a merged report merges again to the same figures", async () => {
    const latency = new SuiteLatency();
    for (const name of ['flows', 'rows']) for (const i of [1, 2, 3]) addStatsData(latency, (JSON.parse(read(`shards/${name}-${i}.json`)) as { statsData: StatsData }).statsData);
    const expected = statsFigures(latency, 1);
    const merged = JSON.parse(read('merged.json')) as Merged;
    expect(merged.stats.runs.count).toBe(22);
    expect(merged.stats.runs.p50).toBe(expected.runs.p50);
    for (const workflow of expected.workflows) {
      expect(merged.stats.workflows.find((w) => w.file === workflow.file && w.workflowId === workflow.workflowId)?.runs).toMatchObject({ count: workflow.runs.count, p50: workflow.runs.p50 });
    }
    const again = await merge('merged.json');
    expect((JSON.parse(again.stdout) as Merged).stats.runs.p50).toBe(expected.runs.p50);
  });

  it('counts each run of the results files once, warning about a run recorded twice and a cut last line', async () => {
    copyFileSync(join(h.ws.dir, 'shards/rows-2.jsonl'), join(h.ws.dir, 'again.jsonl'));
    writeFileSync(join(h.ws.dir, 'again.jsonl'), '{"file":"rows/rows.arazz', { flag: 'a' });
    const files = ['flows', 'rows'].flatMap((name) => [1, 2, 3].map((i) => `shards/${name}-${i}.jsonl`));
    const result = await merge(...files, 'again.jsonl', '--junit', 'from-results.xml');
    expect(result.code).toBe(1);
    const merged = JSON.parse(result.stdout) as Merged;
    const twice = readFileSync(join(h.ws.dir, 'shards/rows-2.jsonl'), 'utf8').trim().split('\n').length;
    expect(merged).toMatchObject({ passed: 17, failed: 5, duplicates: twice });
    expect(result.stderr).toMatch(/^warning: again\.jsonl: the run rows\/rows\.arazzo\.yaml › addItem \[row 2\] is also in shards\/rows-2\.jsonl; counted once$/m);
    expect(result.stderr).toMatch(/^warning: again\.jsonl line \d+ is cut short \(a shard stopped while writing it\): left out$/m);
    expect([...junitCases(read('from-results.xml'))].sort()).toEqual(expectedCases().sort());
  });

  it('warns about a shard given twice and a missing one, and checks thresholds on the merged figures', async () => {
    copyFileSync(join(h.ws.dir, 'shards/flows-1.json'), join(h.ws.dir, 'flows-1-copy.json'));
    const result = await merge('shards/flows-1.json', 'flows-1-copy.json', 'shards/flows-2.json', '--threshold', 'count>100', '--threshold', 'p50<60s');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/warning: shard 1\/3 is in both shards\/flows-1\.json and flows-1-copy\.json: its runs are counted twice/);
    expect(result.stderr).toMatch(/warning: no report of shard 3\/3 \(the suite of shards\/flows-1\.json\): the merge does not cover every run/);
    expect(result.stderr).toMatch(/✗ threshold count>100: count was \d+/);
    expect(result.stderr).toMatch(/✓ threshold p50<60s/);
  });

  it('writes the merged JUnit testcases from their attributes: what else a shard\'s line holds does not reach the merged file', async () => {
    const lines = read('shards/flows-1.xml').split('\n');
    const at = lines.findIndex((line) => line.trim().startsWith('<testcase '));
    lines[at] = `${lines[at]!.replace(/\/>$|<\/testcase>$/, (end) => end)}<injected by="a shard"/>`;
    h.ws.write('injected/flows-1.xml', lines.join('\n'));
    const result = await merge('injected/flows-1.xml', '--junit', 'injected-merged.xml');
    expect([0, 1]).toContain(result.code);
    const merged = read('injected-merged.xml');
    expect(merged).not.toContain('injected');
    expect(junitCases(merged).length).toBe(junitCases(read('shards/flows-1.xml')).length);
  });

  it('refuses inputs that are not shard files (exit 2), naming the file and the line', async () => {
    h.ws.write('bad/not-report.json', '{"passed": 1}');
    h.ws.write('bad/broken.jsonl', '{"file":"a","status":"passed","durationMs":1}\nnot json\n{"file":"b","status":"passed","durationMs":1}\n');
    h.ws.write('bad/other.xml', '<?xml version="1.0"?>\n<testsuites name="jest">\n</testsuites>\n');
    const report = JSON.parse(read('shards/flows-1.json')) as { statsData: { runs: { histogram: string }; workflows: unknown[] } };
    h.ws.write('bad/histogram.json', JSON.stringify({ ...report, statsData: { ...report.statsData, runs: { ...report.statsData.runs, histogram: 'not-a-histogram' } } }));
    h.ws.write('bad/typed.jsonl', '{"file":"a","status":"skipped","durationMs":0,"reason":42}\n{"file":"b","status":"passed","durationMs":1}\n');
    h.ws.write('bad/series.json', JSON.stringify({ ...report, statsData: { ...report.statsData, workflows: [{ file: 'x' }] } }));
    const cases: Array<[string[], RegExp]> = [
      [[], /give the shards' files to merge/],
      [['nowhere/'], /cannot read nowhere\/: no such file or folder/],
      [['bad/not-report.json'], /bad\/not-report\.json is not a suite report of `tool arazzo test --report`/],
      [['bad/broken.jsonl'], /bad\/broken\.jsonl line 2 is not JSON/],
      [['bad/other.xml'], /bad\/other\.xml is not the --junit file of `tool arazzo test`/],
      [['bad/typed.jsonl', '--junit', 'typed-out.xml'], /bad\/typed\.jsonl line 1 is not a run of a --results file \(its workflowId, row, iteration, reason or failure/],
      [['bad/histogram.json'], /bad\/histogram\.json is not a suite report of `tool arazzo test --report` \(its figures cannot be read/],
      [['bad/series.json'], /bad\/series\.json is not a suite report of `tool arazzo test --report` \(its figures cannot be read/],
      [['flows/orders.arazzo.yaml'], /cannot merge flows\/orders\.arazzo\.yaml: give \.json suite reports/],
      [['shards', '--report', 'no/such/folder/out.json'], /cannot write the --report file no\/such\/folder\/out\.json/],
    ];
    for (const [args, message] of cases) {
      const result = await merge(...args);
      expect([args, result.code]).toEqual([args, 2]);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });
});
