/**
 * The options of `tool arazzo run` in-process: inputs, workflow selection, output format, the
 * verbose banner, the timeout, and the exit codes of documents that cannot run (a file that is not
 * YAML, or is missing, through the real binary: test/e2e/binary.test.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { expectNoRun, recordOf, STACK_FRAME, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const ROUTES = {
  'GET /items': (hit: { query: Record<string, string> }) => ({ body: { total: 3, q: hit.query.q } }),
  'GET /a': {},
  'GET /b': { body: { which: 'beta' } },
  'GET /slow': { delayMs: 5000 },
};

describe('arazzo run --input', () => {
  it('passes each --input as a string to $inputs and $workflow.inputs', async () => {
    const result = await h.run('option-inputs.arazzo.yaml', ['--input', 'q=a b=c', '--input', 'trace=t-42'], ROUTES);
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ q: 'a b=c', total: 3 });
    expect(h.server.hits[0]!.query).toEqual({ q: 'a b=c' });
    expect(h.server.hits[0]!.headers['x-trace']).toBe('t-42');
  });

  it('keeps numeric-looking input values as strings', async () => {
    const result = await h.run('option-inputs.arazzo.yaml', ['--input', 'q=007', '--input', 'trace=1'], ROUTES);
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs.q).toBe('007');
  });

  it('rejects an --input without "=" with exit 2 and nothing on stdout (the other shapes: test/cli/run-usage)', async () => {
    const result = await h.run('option-inputs.arazzo.yaml', ['--input', 'noEquals'], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--input');
    expect(h.server.hits).toHaveLength(0);
  });

  it('fails the step before sending when a required parameter\'s input is missing', async () => {
    const result = await h.run('option-inputs-required.arazzo.yaml', [], ROUTES);
    expect(result.code).toBe(1);
    expect(recordOf(result).steps).toEqual([{ stepId: 'get', status: 0, dryRun: false, outputs: {} }]);
    expect(result.stderr).toContain('$inputs.id');
    expect(h.server.hits).toHaveLength(0);
  });

  it('leaves out an optional parameter whose input is missing, with a warning naming it', async () => {
    const result = await h.run('option-inputs.arazzo.yaml', ['--input', 'trace=t'], ROUTES);
    expect(result.stderr).toContain('$inputs.q');
    expect(h.server.hits).toHaveLength(1);
    expect(h.server.hits[0]!.query).toEqual({});
  });
});

describe('arazzo run --workflow', () => {
  it('runs the workflow named by --workflow', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', ['--workflow', 'beta'], ROUTES);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record.workflowId).toBe('beta');
    expect(record.outputs).toEqual({ which: 'beta' });
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/b']);
  });

  it('exits 2 listing the workflow ids when a document has several and --workflow is absent', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', [], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--workflow');
    expect(result.stderr).toMatch(/alpha, beta/);
    expect(h.server.hits).toHaveLength(0);
  });

  it('exits 2 listing the workflow ids for an unknown --workflow', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', ['--workflow', 'gamma'], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('gamma');
    expect(result.stderr).toMatch(/alpha, beta/);
    expect(h.server.hits).toHaveLength(0);
  });
});

describe('arazzo run --output', () => {
  it('prints the record as exactly one YAML document with --output yaml', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', ['--workflow', 'alpha', '--output', 'yaml'], ROUTES);
    expect(result.code).toBe(0);
    const docs = parseAllDocuments(result.stdout);
    expect(docs).toHaveLength(1);
    expect(docs[0]!.errors).toEqual([]);
    expect(docs[0]!.toJS()).toEqual({ status: 'succeeded',
      workflowId: 'alpha',
      outputs: { which: 200 },
      steps: [{ stepId: 'callA', status: 200, dryRun: false, outputs: {} }],
    });
    expect(() => JSON.parse(result.stdout)).toThrow();
  });

  it('prints the partial record as YAML on a failed run too', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', ['--workflow', 'alpha', '--output', 'yaml', '--tool-retry', '0'], { 'GET /a': { status: 500 } });
    expect(result.code).toBe(1);
    const docs = parseAllDocuments(result.stdout);
    expect(docs).toHaveLength(1);
    expect(docs[0]!.toJS()).toEqual({ workflowId: 'alpha', status: 'failed', failure: { stepId: 'callA', code: 'STEP_FAILED', message: expect.stringContaining('HTTP 500') }, outputs: {}, steps: [{ stepId: 'callA', status: 500, dryRun: false, outputs: {} }] });
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('arazzo run --verbose and --tool-timeout', () => {
  it('prints a source-binding banner on stderr with --verbose, before the first step', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', ['--workflow', 'alpha', '--verbose'], ROUTES);
    expect(result.code).toBe(0);
    recordOf(result);
    const lines = result.stderr.split('\n');
    const banner = lines.findIndex((line) => /^\s*api: /.test(line));
    expect(banner).toBeGreaterThanOrEqual(0);
    expect(lines[banner]).toContain('synthetic');
    expect(lines[banner]).toContain(h.server.url);
    expect(banner).toBeLessThan(lines.findIndex((line) => line.includes(`${h.server.url}/a`) && line.includes('callA')));
  });

  it('prints no banner without --verbose', async () => {
    const result = await h.run('option-two-workflows.arazzo.yaml', ['--workflow', 'alpha'], ROUTES);
    expect(result.stderr).not.toMatch(/^\s*api: /m);
  });

  it('fails a step whose response takes longer than --tool-timeout, without sending the next one', async () => {
    // The response would take 30 s: finishing within 10 s proves the timeout fired, even on a loaded machine.
    const result = await h.run('option-slow.arazzo.yaml', ['--tool-timeout', '0.3', '--tool-retry', '0'], { ...ROUTES, 'GET /slow': { delayMs: 30_000 } });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['wait:0']);
    expect(result.stderr).toMatch(/failed at step "wait": .*tim/i);
    expect(result.elapsedMs).toBeLessThan(10_000);
    expect(h.server.count('GET /b')).toBe(0);
  });
});

describe('arazzo run on documents that cannot run', () => {
  it.each([
    ['declares no workflows', 'invalid-no-workflows.arazzo.yaml'],
    ['has a step without operationId, operationPath or workflowId', 'invalid-step-without-operation.arazzo.yaml'],
    ['calls an operationId its source does not have', 'invalid-unknown-operation.arazzo.yaml'],
  ])('exits 10 before any request when the document %s', async (_what, fixture) => {
    const result = await h.run(fixture, [], ROUTES);
    expectNoRun(result, 10);
    expect(result.stderr).toMatch(/error/);
    expect(h.server.hits).toHaveLength(0);
  });
});
