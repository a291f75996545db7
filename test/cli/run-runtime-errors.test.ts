/**
 * The spec's Errors table for constructs a v1 runner does not execute: each fails when (and only
 * when) the run reaches it, with a message naming workflow, step and construct. Requests made
 * before that point are really sent; steps after it never are.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const OK = { 'GET /a': { body: { n: 1, count: 'many' } }, 'GET /b': {}, 'GET /c': {}, 'GET /cleanup': {} };
const A_FAILS = { ...OK, 'GET /a': { status: 409 } };

/** The `error:` line that attributes the failure. */
function failureLine(stderr: string): string {
  return stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';
}

describe('arazzo run: unsupported steps fail at runtime', () => {
  it('runs the steps before an operationPath step, then fails when it is reached', async () => {
    const result = await h.run('runtime-operation-path.arazzo.yaml', [], OK);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:200']);
    expect(failureLine(result.stderr)).toMatch(/workflow "reachesOperationPath" failed at step "byPath": .*operationPath/);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a']);
  });

  it('runs the steps before a nested workflow step, then fails when it is reached', async () => {
    const result = await h.run('runtime-nested-workflow.arazzo.yaml', ['--workflow', 'outer'], OK);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:200']);
    expect(failureLine(result.stderr)).toMatch(/workflow "outer" failed at step "callInner": .*nested workflow.*"inner"/);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a']);
  });

  it('succeeds when a goto skips the operationPath and nested workflow steps', async () => {
    const result = await h.run('runtime-unsupported-skipped.arazzo.yaml', ['--workflow', 'skipsUnsupported'], OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'last:200']);
    expect(result.stderr).not.toMatch(/^error:/m);
  });
});

describe('arazzo run: unsupported actions fail when dispatched', () => {
  it('rejects a goto with workflowId when the failure chain dispatches it', async () => {
    const result = await h.run('runtime-cross-workflow-goto.arazzo.yaml', ['--workflow', 'main'], A_FAILS);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:409']);
    expect(failureLine(result.stderr)).toMatch(/workflow "main" failed at step "first": .*"elsewhere".*"recovery"/);
    expect(h.server.count('GET /cleanup') + h.server.count('GET /b')).toBe(0);
  });

  it('runs normally when the goto with workflowId is never dispatched', async () => {
    const result = await h.run('runtime-cross-workflow-goto.arazzo.yaml', ['--workflow', 'main'], OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'second:200']);
  });

  it('fails on a replay action when it is dispatched', async () => {
    const result = await h.run('runtime-replay.arazzo.yaml', [], A_FAILS);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:409']);
    expect(failureLine(result.stderr)).toMatch(/failed at step "first": .*replay.*not implemented/);
    expect(h.server.count('GET /a')).toBe(1);
  });

  it('runs normally when the replay action is never dispatched', async () => {
    const result = await h.run('runtime-replay.arazzo.yaml', [], OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'second:200']);
  });

  it.each([
    ['regex', '$statusCode', '^409$'],
    ['jsonpath', '$response.body', '$[?@.n == 1]'],
  ])('makes a %s action criterion a hard error at dispatch', async (type, context, condition) => {
    const vars = { TYPE: type, CONTEXT: context, CONDITION: condition };
    const result = await h.run('runtime-action-criterion-type.arazzo.yaml', [], A_FAILS, { vars });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:409']);
    expect(failureLine(result.stderr)).toMatch(new RegExp(`failed at step "first": .*"typedGoto".*${type}`));
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('ignores a regex action criterion while its chain is never dispatched', async () => {
    const vars = { TYPE: 'regex', CONTEXT: '$statusCode', CONDITION: '^409$' };
    const result = await h.run('runtime-action-criterion-type.arazzo.yaml', [], OK, { vars });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'second:200']);
  });

  it('makes a non-empty context on a simple action criterion a hard error at dispatch', async () => {
    const result = await h.run('runtime-action-criterion-context.arazzo.yaml', [], OK);
    expect(result.code).toBe(1);
    expect(failureLine(result.stderr)).toMatch(/failed at step "first": .*context/);
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('makes a non-empty context on a success criterion a hard error for its step, before its request', async () => {
    const result = await h.run('runtime-success-criterion-context.arazzo.yaml', [], OK);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:200']);
    expect(failureLine(result.stderr)).toMatch(/failed at step "second": .*context/);
    expect(h.server.count('GET /b')).toBe(0);
  });
});

describe('arazzo run: criteria evaluation errors', () => {
  it('fails the step with "operand cannot be coerced to a number" when a success criterion orders a non-number', async () => {
    const result = await h.run('runtime-ordering-non-number.arazzo.yaml', [], OK);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['count:200']);
    expect(failureLine(result.stderr)).toMatch(/failed at step "count": .*operand cannot be coerced to a number/);
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('accepts the same success criterion when the operand is a number or a numeric string', async () => {
    const result = await h.run('runtime-ordering-non-number.arazzo.yaml', [], { ...OK, 'GET /a': [{ body: { count: '7' } }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['count:200', 'after:200']);
  });

  it('fails the step with "operand cannot be coerced to a number" when an action criterion orders a non-number', async () => {
    // The spec's Errors table does not limit this to success criteria; a silently false
    // criterion would let the run go on as if the comparison had been evaluated.
    const result = await h.run('runtime-ordering-non-number-action.arazzo.yaml', [], OK);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('operand cannot be coerced to a number');
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('skips regex and jsonpath success criteria with a warning and judges by the simple ones', async () => {
    const result = await h.run('runtime-skipped-success-criteria.arazzo.yaml', [], OK);
    expect(result.code).toBe(0);
    expect(recordOf(result)).toMatchObject({ outputs: { n: 1 }, steps: [{ stepId: 'first', status: 200, outputs: { n: 1 } }] });
    expect(result.stderr).toMatch(/warning.*step "first".*regex.*skipped/);
    expect(result.stderr).toMatch(/warning.*step "first".*jsonpath.*skipped/);
  });

  it('still fails on the simple success criterion next to skipped ones', async () => {
    const result = await h.run('runtime-skipped-success-criteria.arazzo.yaml', ['--tool-retry', '0'], { ...OK, 'GET /a': { status: 500 } });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['first:500']);
  });

  it('refuses a goto to a step the workflow does not have with exit 10, before any request', async () => {
    const result = await h.run('runtime-unknown-goto-target.arazzo.yaml', [], OK);
    expectNoRun(result, 10);
    expect(result.stderr).toContain('noSuchStep');
    expect(h.server.hits).toHaveLength(0);
  });
});
