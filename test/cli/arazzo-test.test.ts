/**
 * `tool arazzo test` in-process against a real local HTTP server: folders of documents (Arazzo
 * 1.0.1 and 1.1.0), the stderr lines and summary, the JSON summary on stdout, skips, --workflow,
 * --bail, an invalid document among valid ones, --results JSON Lines and the usage errors.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace, startInWorkspace } from './run-in-workspace.js';
import { runTool } from './run-tool.js';
import { toolEnv } from '../e2e/helpers/run-tool.js';
import { wantsColor } from '../../src/cli/context.js';

const ROUTES = {
  'GET /a': { status: 200, body: { token: 't-1' } },
  'GET /b': { status: 404, body: { error: 'no b here' } },
  'GET /items': { status: 200, body: [] },
  'GET /items/{id}': { status: 200, body: {} },
};

interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  notRun: number;
  documents: string[];
  runs: Array<{ file: string; workflowId: string | null; status: string; durationMs: number; failure?: { stepId?: string; code: string; message: string }; reason?: string }>;
}

describe('tool arazzo test', () => {
  const h = useRunHarness();

  beforeAll(() => {
    for (const folder of ['suite', 'mixed', 'slow', 'syntax']) h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, `${folder}/api.openapi.yaml`);
    h.ws.fixture('suite/orders.arazzo.yaml', {}, 'suite/orders.arazzo.yaml');
    h.ws.fixture('suite/search.arazzo.yaml', {}, 'suite/search.arazzo.yaml');
    h.ws.fixture('suite/broken.arazzo.yaml', {}, 'mixed/broken.arazzo.yaml');
    h.ws.fixture('suite/search.arazzo.yaml', {}, 'mixed/search.arazzo.yaml');
    h.ws.fixture('suite/slow.arazzo.yaml', {}, 'slow/slow.arazzo.yaml');
    h.ws.fixture('suite/unparsable.arazzo.yaml', {}, 'syntax/a.arazzo.yaml');
    h.ws.fixture('suite/search.arazzo.yaml', {}, 'syntax/b.arazzo.yaml');
    h.server.setRoutes(ROUTES);
  });

  const test = (args: readonly string[], env?: Record<string, string>) => runInWorkspace(['arazzo', 'test', ...args], { cwd: h.ws.dir, ...(env ? { env } : {}) });
  const summaryOf = (stdout: string) => JSON.parse(stdout) as Summary;

  it('runs every workflow of every document of a folder, in file then workflow order, and skips one missing a required input', async () => {
    const result = await test(['suite']);
    expect(result.code).toBe(1);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.file, run.workflowId, run.status])).toEqual([
      ['suite/orders.arazzo.yaml', 'smokeA', 'passed'],
      ['suite/orders.arazzo.yaml', 'smokeB', 'failed'],
      ['suite/orders.arazzo.yaml', 'itemById', 'skipped'],
      ['suite/search.arazzo.yaml', 'searchItems', 'passed'],
    ]);
    expect(summary).toMatchObject({ passed: 2, failed: 1, skipped: 1, notRun: 0, documents: ['suite/orders.arazzo.yaml', 'suite/search.arazzo.yaml'] });
    expect(summary.runs[1]!.failure).toMatchObject({ stepId: 'getB' });
    expect(summary.runs[2]!.reason).toMatch(/"itemId"/);
    // run's warnings (an unbound source) stay; these are the suite's own lines.
    const lines = result.stderr.trim().split('\n').filter((line) => /^[✓✗-] |^\d+ passed/.test(line));
    expect(lines[0]).toMatch(/^✓ suite\/orders\.arazzo\.yaml › smokeA \(\d+ ms\)$/);
    expect(lines[1]).toMatch(/^✗ suite\/orders\.arazzo\.yaml › smokeB \(\d+ ms\): step "getB": .*404/);
    expect(lines[2]).toBe('- suite/orders.arazzo.yaml › itemById skipped: required input "itemId" not given (--input, --inputs-file)');
    expect(lines[3]).toMatch(/^✓ suite\/search\.arazzo\.yaml › searchItems \(\d+ ms\)$/);
    expect(lines.at(-1)).toMatch(/^2 passed, 1 failed, 1 skipped \(2 documents, \d+ ms\)$/);
    // run's own failure line is not repeated, and no per-step progress line is printed.
    expect(result.stderr).not.toMatch(/error: workflow/);
    expect(result.stderr).not.toMatch(/ GET http/);
    expect(lines).toHaveLength(5);
  });

  it('exits 0 when every selected workflow passes, and gives each the inputs it declares', async () => {
    h.server.setRoutes(ROUTES);
    const byGlob = await test(['suite/*.arazzo.yaml', '--workflow', '*?tem?*', '--input', 'itemId=7', '--input', 'q=books']);
    expect(byGlob.code).toBe(0);
    expect(summaryOf(byGlob.stdout).runs.map((run) => [run.workflowId, run.status])).toEqual([
      ['itemById', 'passed'],
      ['searchItems', 'passed'],
    ]);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/items/7', '/items']);
    expect(h.server.hits[1]!.query).toEqual({ q: 'books' });
  });

  it('stops at the first failure with --bail and says how many runs were not started', async () => {
    const result = await test(['suite', '--bail']);
    expect(result.code).toBe(1);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => run.workflowId)).toEqual(['smokeA', 'smokeB']);
    expect(summary.notRun).toBe(2);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^1 passed, 1 failed, 0 skipped, 2 not run \(2 documents, \d+ ms\)$/);
  });

  it('exits 10 for an invalid document, prints its findings as run does, and still runs the others', async () => {
    const result = await test(['mixed']);
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/noSuchOperation/);
    expect(result.stderr).toMatch(/✗ mixed\/broken\.arazzo\.yaml › brokenC \(\d+ ms\): invalid document/i);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.workflowId, run.status])).toEqual([
      ['brokenC', 'failed'],
      ['searchItems', 'passed'],
    ]);
    expect(summary.runs[0]!.failure?.code).toBe('INVALID_DOCUMENT');
  });

  it('counts a document that does not parse as one failed run (exit 10), and still runs the others', async () => {
    const result = await test(['syntax']);
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/^error: syntax\/a\.arazzo\.yaml:3:1: invalid YAML/m);
    expect(result.stderr).toMatch(/^✗ syntax\/a\.arazzo\.yaml › \(document\) \(0 ms\): /m);
    const summary = summaryOf(result.stdout);
    expect(summary.runs.map((run) => [run.file, run.workflowId, run.status])).toEqual([
      ['syntax/a.arazzo.yaml', null, 'failed'],
      ['syntax/b.arazzo.yaml', 'searchItems', 'passed'],
    ]);
  });

  it('stops on Ctrl-C with exit 130, writing the summary and the results of the runs so far; the interrupted run is not among them', async () => {
    h.server.setRoutes({ ...ROUTES, 'GET /slow': { status: 200, body: {}, delayMs: 5_000 } });
    const started = startInWorkspace(['arazzo', 'test', 'slow', '--results', 'interrupted.jsonl'], h.ws.dir);
    while (h.server.hits.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    started.controller.abort();
    expect(await started.exit).toBe(130);
    const summary = summaryOf(started.stdout.text);
    expect(summary.runs).toEqual([]);
    expect(summary.notRun).toBe(2);
    expect(started.stderr.text).toMatch(/^✗ slow\/.*› waits .*interrupted/m);
    expect(started.stderr.text).toMatch(/0 passed, 0 failed, 0 skipped, 2 not run/);
    // --resume runs it again: an interrupted run is not finished.
    expect(readFileSync(join(h.ws.dir, 'interrupted.jsonl'), 'utf8')).toBe('');
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/slow']);
  });

  it('writes one parseable JSON line per finished run to --results, with the record outputs and steps', async () => {
    const result = await test(['suite', '--results', 'out/../results.jsonl']);
    expect(result.code).toBe(1);
    const lines = readFileSync(join(h.ws.dir, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.workflowId, line.status])).toEqual([
      ['smokeA', 'passed'],
      ['smokeB', 'failed'],
      ['itemById', 'skipped'],
      ['searchItems', 'passed'],
    ]);
    expect(lines[0]).toMatchObject({ file: 'suite/orders.arazzo.yaml', outputs: { token: 't-1' }, steps: [{ stepId: 'getA', status: 200 }] });
    expect(lines[1]).toMatchObject({ failure: { stepId: 'getB' }, steps: [{ stepId: 'getB' }] });
    expect(lines[2]).toMatchObject({ reason: expect.stringContaining('itemId') });
    expect(typeof lines[3]!.durationMs).toBe('number');
  });

  it('refuses an unwritable --results path before running anything (exit 2)', async () => {
    h.server.setRoutes(ROUTES);
    const result = await test(['suite', '--results', 'no/such/folder/results.jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--results no\/such\/folder\/results\.jsonl/);
    expect(result.stdout).toBe('');
    expect(h.server.hits).toHaveLength(0);
  });

  (existsSync('/dev/full') ? it : it.skip)('stops starting runs when --results cannot be written any more (a full disk): one error line, no internal error, exit 2, the summary still whole', async () => {
    const result = await test(['suite', '--results', '/dev/full']);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(/internal error|This is a bug/);
    expect(result.stderr).toMatch(/^error: --results \/dev\/full: cannot write the file any more \(ENOSPC\)/m);
    const summary = summaryOf(result.stdout);
    // The first run's line could not be written: no other run starts.
    expect(summary.runs).toHaveLength(1);
    expect(summary.notRun).toBe(3);
  });

  it('names every pattern that matched no document (exit 2)', async () => {
    const result = await test(['suite', 'nowhere/*.arazzo.yaml', 'missing.arazzo.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no Arazzo document matches "nowhere\/\*\.arazzo\.yaml", "missing\.arazzo\.yaml"/);
    expect(result.stdout).toBe('');
    const none = await runInWorkspace(['arazzo', 'test'], { cwd: join(h.ws.dir, 'config'), home: h.ws.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no Arazzo document under the working directory/);
  });

  it('refuses a --workflow that selects no workflow (exit 2)', async () => {
    const result = await test(['suite', '--workflow', 'nothing*']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--workflow "nothing\*" selects no workflow of the 2 documents/);
  });

  it('prints exactly one JSON document on stdout, and colours stderr on a terminal but never with NO_COLOR', async () => {
    // bin.ts decides colours with wantsColor, as here: a terminal colours, NO_COLOR wins over it and FORCE_COLOR.
    const run = (env: Record<string, string>) => runTool(['arazzo', 'test', 'suite'], { cwd: h.ws.dir, env: toolEnv(h.ws.dir, env), colors: wantsColor(env, true) });
    const plain = await run({ NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(plain.code).toBe(1);
    expect(JSON.parse(plain.stdout)).toMatchObject({ passed: 2, failed: 1, skipped: 1 });
    expect(plain.stdout.trim().startsWith('{') && plain.stdout.trim().endsWith('}')).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(plain.stderr + plain.stdout).not.toMatch(/\u001b\[/);
    const coloured = await run({});
    expect(coloured.stderr).toContain('\u001b[32m✓\u001b[39m suite/orders.arazzo.yaml › smokeA');
    // eslint-disable-next-line no-control-regex
    expect(coloured.stdout).not.toMatch(/\u001b\[/);
  });
});
