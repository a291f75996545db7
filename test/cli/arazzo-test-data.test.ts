/**
 * `tool arazzo test --data` in-process against a real local HTTP server, with data files written
 * in the test's workspace: CSV (BOM, quotes, commas and newlines in fields), JSON Lines with bad
 * lines, a JSON array, rows that fail the inputs schema, --bail, and the usage errors.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const ROUTES = {
  'POST /items': { status: 201, body: {} },
  'GET /items': { status: 200, body: [] },
};

interface Run {
  workflowId: string | null;
  row?: number;
  status: string;
  failure?: { code: string; message: string };
}

interface Summary {
  passed: number;
  failed: number;
  notRun: number;
  runs: Run[];
}

describe('tool arazzo test --data', () => {
  const h = useRunHarness();

  beforeAll(() => {
    h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, 'rows/api.openapi.yaml');
    h.ws.fixture('suite/rows.arazzo.yaml', {}, 'rows/rows.arazzo.yaml');
    h.ws.fixture('suite/orders.arazzo.yaml', {}, 'rows/orders.arazzo.yaml');
    h.ws.fixture('suite/broken.arazzo.yaml', {}, 'rows/broken.arazzo.yaml');
  });

  const test = (data: string, ...args: string[]) => {
    h.server.setRoutes(ROUTES);
    return runInWorkspace(['arazzo', 'test', 'rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', data, ...args], { cwd: h.ws.dir });
  };
  const summaryOf = (stdout: string) => JSON.parse(stdout) as Summary;
  const sent = () => h.server.hits.map((hit) => JSON.parse(hit.body) as Record<string, unknown>);
  const suiteLines = (stderr: string) => stderr.split('\n').filter((line) => /^[✓✗-] /.test(line));

  it('runs the workflow once per CSV row, reading quoted commas, doubled quotes, newlines and a BOM, with the values typed by the schema', async () => {
    h.ws.write('rows/items.csv', '\uFEFFname,count,note,tag\r\n"a, b",3,"say ""hi""\nsecond line",\r\nplain,-2,,own\r\n\r\n"",0,"",\r\n');
    const result = await test('rows/items.csv', '--input', 'tag=from-flag', '--input', 'count=99', '--results', 'rows-results.jsonl');
    expect(result.code).toBe(0);
    expect(sent()).toEqual([
      // An unquoted empty cell gives nothing: --input's value, else the schema's default; the row wins over --input.
      { name: 'a, b', count: 3, note: 'say "hi"\nsecond line', tag: 'from-flag' },
      { name: 'plain', count: -2, note: 'none', tag: 'own' },
      // A quoted empty cell is the empty string; a blank line is not a row.
      { name: '', count: 0, note: '', tag: 'from-flag' },
    ]);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.workflowId, run.row, run.status])).toEqual([
      ['addItem', 1, 'passed'],
      ['addItem', 2, 'passed'],
      ['addItem', 3, 'passed'],
    ]);
    const lines = suiteLines(result.stderr);
    expect(lines[0]).toMatch(/^✓ rows\/rows\.arazzo\.yaml › addItem \[row 1\] \(\d+ ms\)$/);
    expect(lines[2]).toMatch(/^✓ rows\/rows\.arazzo\.yaml › addItem \[row 3\] \(\d+ ms\)$/);
    expect(result.stderr).toMatch(/^3 passed, 0 failed, 0 skipped \(1 document, \d+ ms\)$/m);
    const written = readFileSync(join(h.ws.dir, 'rows-results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written.map((line) => [line.workflowId, line.row, line.status])).toEqual([
      ['addItem', 1, 'passed'],
      ['addItem', 2, 'passed'],
      ['addItem', 3, 'passed'],
    ]);
  });

  it('fails a CSV row that does not fit the schema or is malformed, with its row number, sends nothing for it and runs the others', async () => {
    h.ws.write('rows/bad-count.csv', 'name,count\nfirst,1\nsecond,twelve\nthird,3\nfourth,4,extra\nfi"fth,5\nsixth,6\n');
    const result = await test('rows/bad-count.csv');
    expect(result.code).toBe(1);
    expect(sent().map((body) => body.name)).toEqual(['first', 'third', 'sixth']);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.row, run.status, run.failure?.code])).toEqual([
      [1, 'passed', undefined],
      [2, 'failed', 'INVALID_INPUTS'],
      [3, 'passed', undefined],
      [4, 'failed', 'INVALID_ROW'],
      [5, 'failed', 'INVALID_ROW'],
      [6, 'passed', undefined],
    ]);
    expect(summary.runs[4]!.failure!.message).toMatch(/^rows\/bad-count\.csv row 5 is not valid CSV \(Invalid Opening Quote: .* at line 6\); nothing was sent$/);
    expect(summary.runs[1]!.failure!.message).toBe('input "count" must be integer (given: "twelve"); nothing was sent');
    expect(summary.runs[3]!.failure!.message).toMatch(/rows\/bad-count\.csv row 4 has 3 fields, the header names 2; nothing was sent/);
    expect(suiteLines(result.stderr)[1]).toBe('✗ rows/rows.arazzo.yaml › addItem [row 2] (0 ms): input "count" must be integer (given: "twelve"); nothing was sent');
  });

  it('fails a JSON Lines line that is not a JSON object with its row and line numbers, and runs the good lines', async () => {
    h.ws.write('rows/items.jsonl', '{"name": "one", "count": 1}\n\n{"name": "two", "count": \n{"name": "three", "count": 3, "note": "n"}\n[1, 2]\n{"name": "five", "count": "5"}\n');
    const result = await test('rows/items.jsonl');
    expect(result.code).toBe(1);
    expect(sent()).toEqual([
      { name: 'one', count: 1, note: 'none' },
      { name: 'three', count: 3, note: 'n' },
    ]);
    const runs = summaryOf(result.stdout).runs;
    expect(runs.map((run) => [run.row, run.status, run.failure?.code])).toEqual([
      [1, 'passed', undefined],
      [2, 'failed', 'INVALID_ROW'],
      [3, 'passed', undefined],
      [4, 'failed', 'INVALID_ROW'],
      // JSON values keep their type: a string is not coerced to the integer the schema declares.
      [5, 'failed', 'INVALID_INPUTS'],
    ]);
    expect(runs[1]!.failure!.message).toMatch(/^rows\/items\.jsonl line 3 is not JSON \(.+\); nothing was sent$/);
    expect(runs[3]!.failure!.message).toBe('rows/items.jsonl line 5 is an array, not a JSON object of inputs; nothing was sent');
    expect(runs[4]!.failure!.message).toMatch(/input "count" must be integer \(given: "5"\)/);
  });

  it('runs the workflow once per object of a JSON array', async () => {
    h.ws.write('rows/items.json', JSON.stringify([{ name: 'x', count: 7 }, { name: 'y', count: 8, note: 'z' }]));
    const result = await test('rows/items.json');
    expect(result.code).toBe(0);
    expect(sent()).toEqual([
      { name: 'x', count: 7, note: 'none' },
      { name: 'y', count: 8, note: 'z' },
    ]);
    expect(summaryOf(result.stdout).runs.map((run) => run.row)).toEqual([1, 2]);
  });

  it('stops at the first failed row with --bail and counts the rows not run', async () => {
    h.ws.write('rows/bail.jsonl', ['{"name": "a", "count": 1}', '{"name": "b"}', '{"name": "c", "count": 3}', '{"name": "d", "count": 4}'].join('\n'));
    const result = await test('rows/bail.jsonl', '--bail');
    expect(result.code).toBe(1);
    expect(sent().map((body) => body.name)).toEqual(['a']);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.row, run.status])).toEqual([
      [1, 'passed'],
      [2, 'failed'],
    ]);
    expect(summary.runs[1]!.failure!.message).toBe('input "count" is required by workflow "addItem"; nothing was sent');
    expect(summary.notRun).toBe(2);
    expect(result.stderr).toMatch(/^1 passed, 1 failed, 0 skipped, 2 not run \(1 document, \d+ ms\)$/m);
  });

  it('checks rows against the inputs schema under the v1 runner too (an Arazzo 1.0.1 document)', async () => {
    h.ws.write('rows/ids.csv', 'itemId,label\n7,a\n\n,b\n"8",c\n');
    h.server.setRoutes({ 'GET /items/{id}': { status: 200, body: {} } });
    const result = await runInWorkspace(['arazzo', 'test', 'rows/orders.arazzo.yaml', '--workflow', 'itemById', '--data', 'rows/ids.csv'], { cwd: h.ws.dir });
    expect(result.code).toBe(1);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/items/7', '/items/8']);
    const runs = summaryOf(result.stdout).runs;
    expect(runs.map((run) => [run.row, run.status])).toEqual([
      [1, 'passed'],
      [2, 'failed'],
      [3, 'passed'],
    ]);
    expect(runs[1]!.failure).toEqual({ code: 'INVALID_INPUTS', message: 'input "itemId" is required by workflow "itemById"; nothing was sent' });
  });

  it('stops the rows of an invalid document at the first (exit 10), printing its findings once', async () => {
    h.ws.write('rows/three.jsonl', '{}\n{}\n{}\n');
    h.server.setRoutes(ROUTES);
    const result = await runInWorkspace(['arazzo', 'test', 'rows/broken.arazzo.yaml', '--data', 'rows/three.jsonl'], { cwd: h.ws.dir });
    expect(result.code).toBe(10);
    expect(result.stderr.match(/noSuchOperation/g)).toHaveLength(1);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.row, run.failure?.code])).toEqual([[1, 'INVALID_DOCUMENT']]);
    expect(summary.notRun).toBe(2);
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses --data when more than one workflow is selected (exit 2), before anything is sent', async () => {
    h.ws.write('rows/one.jsonl', '{"name": "a", "count": 1}\n');
    h.server.setRoutes(ROUTES);
    const result = await runInWorkspace(['arazzo', 'test', 'rows/rows.arazzo.yaml', '--data', 'rows/one.jsonl'], { cwd: h.ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--data rows\/one\.jsonl runs one workflow once per row, and 2 are selected \(rows\/rows\.arazzo\.yaml › addItem, rows\/rows\.arazzo\.yaml › listAll\)/);
    expect(result.stderr).toMatch(/--workflow/);
    expect(result.stdout).toBe('');
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses a missing data file and an unknown extension (exit 2), naming the file, before anything is sent', async () => {
    const missing = await test('rows/nowhere.csv');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--data rows\/nowhere\.csv: cannot read the file \(ENOENT\); nothing was run/);
    expect(missing.stdout).toBe('');
    h.ws.write('rows/items.txt', 'name,count\na,1\n');
    const unknown = await test('rows/items.txt');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--data rows\/items\.txt: "\.txt" is not a data format; nothing was run/);
    expect(unknown.stderr).toMatch(/\.csv.*\.jsonl.*\.json/);
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses a CSV file whose header repeats a column, and a .json file that is not an array (exit 2)', async () => {
    h.ws.write('rows/twice.csv', 'name,count,name\na,1,b\n');
    const twice = await test('rows/twice.csv');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--data rows\/twice\.csv: the header names column "name" twice/);
    h.ws.write('rows/object.json', '{"name": "a"}');
    const object = await test('rows/object.json');
    expect(object.code).toBe(2);
    expect(object.stderr).toMatch(/--data rows\/object\.json: the JSON is not an array of rows/);
    h.ws.write('rows/broken.json', '[\n  {"name": "a"}\n  {"name": "b"}\n]');
    const broken = await test('rows/broken.json');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/--data rows\/broken\.json:3:3: not valid JSON \(Expected ',' or ']' after array element\); nothing was run/);
    // The text around a mistake is not quoted: a row may hold a secret.
    h.ws.write('rows/secret.json', '[{"password": "hunter2"}, oops]');
    const secret = await test('rows/secret.json');
    expect(secret.code).toBe(2);
    expect(secret.stderr).not.toMatch(/hunter2/);
    expect(h.server.hits).toHaveLength(0);
  });
});
