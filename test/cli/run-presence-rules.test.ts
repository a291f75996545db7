/**
 * The spec's action chain selection, on both sides: an absent step chain takes the workflow's, an
 * empty one opts out, a non-empty one wins (the workflow's is not consulted even when nothing in
 * the step's matches). `$components` references resolve; a bad one stops the run before any request.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const ROUTES = { 'GET /a': { status: 409 }, 'GET /b': {}, 'GET /c': {}, 'GET /cleanup': {} };
const ALL_OK = { 'GET /a': { body: { n: 1 } }, 'GET /b': {}, 'GET /c': {}, 'GET /cleanup': {} };

describe('arazzo run: failure chain presence rules', () => {
  it('applies the workflow failureActions to a step without onFailure', async () => {
    const result = await h.run('presence-failure-absent.arazzo.yaml', ['--tool-retry', '0'], ROUTES);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['risky:409:on-failure-goto', 'tidy:200']);
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('fires no action for a step with onFailure: [] even though the workflow has failureActions', async () => {
    const result = await h.run('presence-failure-opt-out.arazzo.yaml', ['--tool-retry', '0'], ROUTES);
    expect(result.code).toBe(1);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['risky:409']);
    expect(record.steps[0]).not.toHaveProperty('failedVia');
    expect(h.server.count('GET /cleanup')).toBe(0);
    expect(result.stderr).toMatch(/failed at step "risky"/);
  });

  it('uses only the step onFailure chain when it is non-empty, even when none of its actions match', async () => {
    const result = await h.run('presence-failure-step-wins.arazzo.yaml', ['--tool-retry', '0'], ROUTES);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['risky:409']);
    expect(h.server.count('GET /a')).toBe(1);
    expect(h.server.count('GET /cleanup')).toBe(0);
  });

  it('uses the step onFailure chain when one of its actions matches', async () => {
    const result = await h.run('presence-failure-step-wins.arazzo.yaml', ['--tool-retry', '0'], {
      ...ROUTES,
      'GET /a': [{ status: 503 }, { status: 200 }],
    });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['risky:503', 'risky:200', 'skipped:200', 'tidy:200']);
  });
});

describe('arazzo run: success chain presence rules', () => {
  it('applies the workflow successActions to a step without onSuccess', async () => {
    const result = await h.run('presence-success-absent.arazzo.yaml', [], ALL_OK);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['first:200']);
    expect(record.outputs).toEqual({ n: 1 });
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('fires no success action for a step with onSuccess: [], and the next step inherits again', async () => {
    const result = await h.run('presence-success-opt-out.arazzo.yaml', [], ALL_OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'second:200']);
    expect(h.server.count('GET /c')).toBe(0);
  });

  it('uses only the step onSuccess chain when it is non-empty, even when none of its actions match', async () => {
    const result = await h.run('presence-success-step-wins.arazzo.yaml', [], ALL_OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'second:200', 'third:200']);
  });

  it('uses the step onSuccess chain when one of its actions matches', async () => {
    const result = await h.run('presence-success-step-wins.arazzo.yaml', [], { ...ALL_OK, 'GET /a': { status: 202 } });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:202', 'third:200']);
    expect(h.server.count('GET /b')).toBe(0);
  });
});

describe('arazzo run: $components action references', () => {
  it('resolves $components.failureActions and $components.successActions references', async () => {
    const result = await h.run('presence-components.arazzo.yaml', ['--tool-retry', '0'], ROUTES);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['risky:409:on-failure-goto', 'tidy:200']);
    expect(h.server.count('GET /b') + h.server.count('GET /c')).toBe(0);
  });

  it('keeps the referenced action criteria: a status they do not match stops the run', async () => {
    const result = await h.run('presence-components.arazzo.yaml', ['--tool-retry', '0'], { ...ROUTES, 'GET /a': { status: 422 } });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['risky:422']);
  });

  it.each([
    ['names a missing action', '$components.failureActions.missing'],
    ['is not a $components path', '#/components/failureActions/giveUp'],
    ['names the wrong side', '$components.successActions.finish'],
    ['has trailing text', '$components.failureActions.giveUp.extra'],
  ])('exits 10 before any request when a reference %s', async (_what, reference) => {
    const result = await h.run('presence-bad-reference.arazzo.yaml', [], ALL_OK, { vars: { REFERENCE: reference } });
    expectNoRun(result, 10);
    expect(result.stderr).toContain(reference);
    expect(h.server.hits).toHaveLength(0);
  });
});
