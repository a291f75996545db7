/**
 * Every row of the spec's "States and transitions" table, in-process against a real server: exit
 * code, run record, stderr attribution, and what the server actually received. The first two rows
 * (success; a failure no action handles) run through the real binary: test/e2e/binary.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();

describe('arazzo run: the States and transitions table', () => {
  it('stops with exit 1 on a failure-side end, marking the record on-failure-end and naming workflow and step', async () => {
    const result = await h.run('state-failure-end.arazzo.yaml', [], { 'GET /a': {}, 'GET /b': { status: 409 }, 'GET /c': {} });
    expect(result.code).toBe(1);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['first:200', 'second:409:on-failure-end']);
    expect(result.stderr).toMatch(/workflow "endsOnConflict" failed at step "second"/);
    expect(result.stderr).toContain('giveUp');
    expect(h.server.count('GET /c')).toBe(0);
  });

  it('re-runs a step on a failure-side retry until it succeeds, one record per run', async () => {
    const result = await h.run('state-retry.arazzo.yaml', ['--tool-retry', '0'], {
      'GET /a': [{ status: 409 }, { status: 409 }, { status: 200, body: { attempt: 3 } }],
      'GET /b': {},
    });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['flaky:409', 'flaky:409', 'flaky:200', 'after:200']);
    expect(record.outputs).toEqual({ attempt: 3 });
    expect(h.server.count('GET /a')).toBe(3);
    expect(h.server.count('GET /b')).toBe(1);
  });

  it('stops with exit 1 when the retry limit is reached, attaching the last error', async () => {
    const result = await h.run('state-retry.arazzo.yaml', ['--tool-retry', '0'], {
      'GET /a': (_hit, n) => ({ status: 409, body: { attempt: n } }),
      'GET /b': {},
    });
    expect(result.code).toBe(1);
    // retryLimit 3: the first run and three retries.
    expect(trail(recordOf(result))).toEqual(['flaky:409', 'flaky:409', 'flaky:409', 'flaky:409']);
    expect(h.server.count('GET /a')).toBe(4);
    const failure = result.stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';
    expect(failure).toMatch(/workflow "retriesBusy" failed at step "flaky"/);
    expect(failure).toMatch(/limit of 3 retries; last error: .*409/);
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('stops with the plain step failure when a retry action no longer matches, without calling it a retry limit', async () => {
    const result = await h.run('state-retry.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': [{ status: 409 }, { status: 418 }], 'GET /b': {} });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['flaky:409', 'flaky:418']);
    expect(result.stderr).toMatch(/failed at step "flaky": HTTP 418/);
    expect(result.stderr).not.toContain('last error');
  });

  it('retries once by default when retryLimit is absent', async () => {
    const result = await h.run('state-retry-default-limit.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': { status: 409 }, 'GET /b': {} });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['flaky:409', 'flaky:409']);
    expect(h.server.count('GET /a')).toBe(2);
    expect(result.stderr).toContain('last error');
  });

  it('sleeps retryAfter seconds before re-running the step', async () => {
    const result = await h.run('state-retry-after.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': [{ status: 409 }, { status: 200 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['flaky:409', 'flaky:200']);
    const [first, second] = h.server.hits;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(600);
    expect(second!.at - first!.at).toBeLessThan(5000);
  });

  it('honours a Retry-After header longer than retryAfter before a workflow retry', async () => {
    const result = await h.run('state-retry-default-limit.arazzo.yaml', ['--tool-retry', '0'], {
      'GET /a': [{ status: 409, headers: { 'Retry-After': '1' } }, { status: 200 }],
      'GET /b': {},
    });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['flaky:409', 'flaky:200', 'after:200']);
    const [first, second] = h.server.hits;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
  });

  it('fires a workflow retry on a transport error (connection reset), recording status 0 for the failed run', async () => {
    const result = await h.run('state-retry-default-limit.arazzo.yaml', ['--tool-retry', '0'], {
      'GET /a': [{ reset: true }, { status: 200 }],
      'GET /b': {},
    });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['flaky:0', 'flaky:200', 'after:200']);
    expect(h.server.count('GET /a')).toBe(2);
  });

  it('goes to the named step on a failure-side goto, skipping the steps between without calling them', async () => {
    const result = await h.run('state-failure-goto.arazzo.yaml', [], {
      'GET /a': { status: 409 },
      'GET /b': {},
      'GET /c': {},
      'GET /cleanup': { body: { cleaned: true } },
    });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record.steps).toEqual([
      { stepId: 'risky', status: 409, dryRun: false, outputs: {}, failedVia: 'on-failure-goto' },
      { stepId: 'tidy', status: 200, dryRun: false, outputs: { cleaned: true } },
    ]);
    expect(record.outputs).toEqual({ cleaned: true });
    expect(h.server.count('GET /b') + h.server.count('GET /c')).toBe(0);
  });

  it('ends with exit 0 on a success-side end, emitting the outputs and calling no later step', async () => {
    const result = await h.run('state-success-end.arazzo.yaml', [], { 'GET /a': { body: { found: true } }, 'GET /b': {} });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record).toEqual({ status: 'succeeded',
      workflowId: 'endsEarly',
      outputs: { found: true },
      steps: [{ stepId: 'lookup', status: 200, dryRun: false, outputs: { found: true } }],
    });
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('carries on in order when the success-side end criteria do not hold', async () => {
    const result = await h.run('state-success-end.arazzo.yaml', [], { 'GET /a': { body: { found: false } }, 'GET /b': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['lookup:200', 'fallback:200']);
    expect(h.server.count('GET /b')).toBe(1);
  });

  it('jumps to the named step on a success-side goto, without failedVia', async () => {
    const result = await h.run('state-success-goto.arazzo.yaml', [], { 'GET /a': {}, 'GET /b': {}, 'GET /c': { body: { done: 'yes' } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record.steps).toEqual([
      { stepId: 'start', status: 200, dryRun: false, outputs: {} },
      { stepId: 'finish', status: 200, dryRun: false, outputs: { done: 'yes' } },
    ]);
    expect(record.outputs).toEqual({ done: 'yes' });
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('stops a goto loop with StepBudgetExhausted once --tool-max-steps runs are spent', async () => {
    const result = await h.run('state-budget-loop.arazzo.yaml', ['--tool-max-steps', '20'], { 'GET /a': {}, 'GET /b': {} });
    expect(result.code).toBe(1);
    const record = recordOf(result);
    expect(record.steps).toHaveLength(20);
    expect(record.outputs).toEqual({});
    expect(h.server.hits).toHaveLength(20);
    expect(h.server.count('GET /a')).toBe(10);
    expect(result.stderr).toContain('StepBudgetExhausted');
    expect(result.stderr).toMatch(/workflow "loopsForever" failed/);
  });

  it('counts workflow retries against --tool-max-steps', async () => {
    const result = await h.run('state-retry.arazzo.yaml', ['--tool-retry', '0', '--tool-max-steps', '2'], { 'GET /a': { status: 409 }, 'GET /b': {} });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['flaky:409', 'flaky:409']);
    expect(h.server.count('GET /a')).toBe(2);
    expect(result.stderr).toContain('StepBudgetExhausted');
  });

  it('starts the retry counter afresh when a goto enters the step again', async () => {
    const result = await h.run('state-retry-counter-reset.arazzo.yaml', ['--tool-retry', '0'], {
      'GET /a': [{ status: 409 }, { body: { state: 'pending' } }, { status: 409 }, { body: { state: 'done' } }],
    });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['poll:409', 'poll:200', 'poll:409', 'poll:200']);
    expect(record.outputs).toEqual({ state: 'done' });
  });

  it('prints each request on stderr in dry-run and sends nothing', async () => {
    const result = await h.run('state-dry-run.arazzo.yaml', ['--dry-run', '--input', 'name=Rex'], { 'GET /items': {}, 'POST /items': {} });
    expect(result.code).toBe(0);
    expect(h.server.hits).toHaveLength(0);
    expect(result.stderr).not.toMatch(/warning.*UNKNOWN_FIELD/);
    const record = recordOf(result);
    expect(record.steps).toEqual([
      { stepId: 'search', status: 0, dryRun: true, outputs: {} },
      { stepId: 'create', status: 0, dryRun: true, outputs: {} },
    ]);
    const lines = result.stderr.split('\n');
    const lowerKeys = (line: string) => Object.fromEntries(Object.entries(JSON.parse(line) as object).map(([k, v]) => [k.toLowerCase(), v]));
    const lineOf = (shape: string) => lines.findIndex((line) => line === shape || line.endsWith(` ${shape}`));
    const at = lineOf(`search GET ${h.server.url}/items?q=Rex`);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lowerKeys(lines[at + 1]!)).toMatchObject({ 'x-trace': 'trace-1' });
    expect(JSON.parse(lines[at + 2]!)).toBeNull();
    const post = lineOf(`create POST ${h.server.url}/items`);
    expect(post).toBe(at + 3);
    expect(lowerKeys(lines[post + 1]!)).toMatchObject({ 'content-type': expect.stringContaining('application/json') });
    expect(JSON.parse(lines[post + 2]!)).toEqual({ name: 'Rex', count: 2 });
  });
});
