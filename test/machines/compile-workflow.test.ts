import { describe, expect, it } from '@jest/globals';
import { createActor } from 'xstate';
import { compileWorkflow } from '../../machines/compile-workflow.js';
import { action, judgeOf, runPlan, step, worded } from './harness.js';

const plan = (...steps: ReturnType<typeof step>[]) => ({ workflowId: 'wf', steps });

describe('compileWorkflow: the States table', () => {
  it('runs steps in document order and succeeds after the last one', async () => {
    const r = await runPlan(plan(step('a'), step('b'), step('c')), {});
    expect(r.final).toBe('succeeded');
    expect(r.calls).toEqual(['a', 'b', 'c']);
    expect(r.context.records).toEqual([
      { stepId: 'a', status: 200, dryRun: false, outputs: { run: 1 } },
      { stepId: 'b', status: 200, dryRun: false, outputs: { run: 1 } },
      { stepId: 'c', status: 200, dryRun: false, outputs: { run: 1 } },
    ]);
  });

  it('evaluates workflow outputs only when the workflow succeeds', async () => {
    const judge = judgeOf([], (ctx) => ({ last: ctx.steps.b?.outputs.run }));
    const ok = await runPlan(plan(step('a'), step('b')), {}, { judge });
    expect(ok.context.outputs).toEqual({ last: 1 });
    const bad = await runPlan(plan(step('a'), step('b')), { b: [500] }, { judge });
    expect(bad.final).toBe('failed');
    expect(bad.context.outputs).toEqual({});
  });

  it('stops with the underlying error when no action chain applies', async () => {
    const r = await runPlan(plan(step('a'), step('b'), step('c')), { b: [500] });
    expect(r.final).toBe('failed');
    expect(r.calls).toEqual(['a', 'b']);
    expect(worded(r.context.failure)).toEqual({ code: 'STEP_FAILED', stepId: 'b', message: 'HTTP 500' });
    expect(r.context.records[1]).toEqual({ stepId: 'b', status: 500, dryRun: false, outputs: {} });
    expect(r.context.records[1]).not.toHaveProperty('failedVia');
  });

  it('falls through when no action criteria match', async () => {
    const judge = judgeOf([(s) => s === 404]);
    const s = step('a', { onFailure: [action('goto', { criteriaId: 0, targetIndex: 1 })] });
    const r = await runPlan(plan(s, step('cleanup')), { a: [500] }, { judge });
    expect(r.final).toBe('failed');
    expect(r.calls).toEqual(['a']);
  });

  it('ends the workflow non-zero on a failure-side end and marks the record', async () => {
    const s = step('a', { onFailure: [action('end', { name: 'stop' })] });
    const r = await runPlan(plan(s, step('b')), { a: [403] });
    expect(r.final).toBe('failed');
    expect(r.calls).toEqual(['a']);
    expect(r.context.records).toEqual([{ stepId: 'a', status: 403, dryRun: false, outputs: {}, failedVia: 'on-failure-end' }]);
    expect(worded(r.context.failure)).toEqual({ code: 'END_ACTION', stepId: 'a', message: 'failure action "stop" ended the workflow: HTTP 403' });
  });

  it('retries a failed step once by default and then succeeds', async () => {
    const s = step('a', { onFailure: [action('retry')] });
    const r = await runPlan(plan(s, step('b')), { a: [503, 200] });
    expect(r.final).toBe('succeeded');
    expect(r.calls).toEqual(['a', 'a', 'b']);
    expect(r.context.records.map((x) => [x.stepId, x.status])).toEqual([['a', 503], ['a', 200], ['b', 200]]);
  });

  it('stops with the last error attached when retries reach retryLimit', async () => {
    const s = step('a', { onFailure: [action('retry', { name: 'again', retryLimit: 3 })] });
    const r = await runPlan(plan(s), { a: [503, 502, 500, 504] });
    expect(r.final).toBe('failed');
    expect(r.calls).toEqual(['a', 'a', 'a', 'a']);
    expect(worded(r.context.failure)).toEqual({
      code: 'RETRIES_EXHAUSTED',
      stepId: 'a',
      message: 'retry action "again" reached its limit of 3 retries; last error: HTTP 504',
    });
  });

  it('sleeps retryAfter seconds before each retry, clamped to 60', async () => {
    const s = step('a', { onFailure: [action('retry', { retryLimit: 2, retryAfterSeconds: 2 })] });
    const r = await runPlan(plan(s), { a: [503, 503, 200] });
    expect(r.final).toBe('succeeded');
    expect(r.sleptMs).toBe(4000);
    const long = step('a', { onFailure: [action('retry', { retryAfterSeconds: 600 })] });
    expect((await runPlan(plan(long), { a: [503, 200] })).sleptMs).toBe(60000);
  });

  it('honours a longer Retry-After header of the failed response', async () => {
    const s = step('a', { onFailure: [action('retry', { retryAfterSeconds: 1 })] });
    const r = await runPlan(plan(s), { a: [429, 200] }, { retryAfterHeader: 5 });
    expect(r.sleptMs).toBe(5000);
  });

  it('retries after a transport error', async () => {
    const s = step('a', { onFailure: [action('retry')] });
    const r = await runPlan(plan(s), { a: [0, 200] });
    expect(r.final).toBe('succeeded');
    expect(r.context.records[0]).toEqual({ stepId: 'a', status: 0, dryRun: false, outputs: {} });
  });

  it('resets the retry counter when a step is entered again by a goto', async () => {
    const judge = judgeOf([(s) => s === 503, (s) => s === 409]);
    const a = step('a', {
      onFailure: [action('retry', { criteriaId: 0, retryLimit: 1 }), action('goto', { criteriaId: 1, targetIndex: 0 })],
    });
    // 503 retry (1 used), 409 goto a (counter reset), 503 retry again allowed, 200.
    const r = await runPlan(plan(a), { a: [503, 409, 503, 200] }, { judge });
    expect(r.final).toBe('succeeded');
    expect(r.calls).toEqual(['a', 'a', 'a', 'a']);
  });

  it('jumps to the goto target on failure, skipping the steps between', async () => {
    const s = step('a', { onFailure: [action('goto', { targetIndex: 3 })] });
    const r = await runPlan(plan(s, step('b'), step('c'), step('cleanup')), { a: [500] });
    expect(r.final).toBe('succeeded');
    expect(r.calls).toEqual(['a', 'cleanup']);
    expect(r.context.records[0]).toEqual({ stepId: 'a', status: 500, dryRun: false, outputs: {}, failedVia: 'on-failure-goto' });
  });

  it('picks the first failure action whose criteria hold', async () => {
    const judge = judgeOf([(s) => s === 404, (s) => s >= 500, () => true]);
    const s = step('a', {
      onFailure: [
        action('goto', { criteriaId: 0, targetIndex: 1 }),
        action('end', { criteriaId: 1 }),
        action('goto', { criteriaId: 2, targetIndex: 2 }),
      ],
    });
    const r = await runPlan(plan(s, step('notFound'), step('other')), { a: [503] }, { judge });
    expect(r.final).toBe('failed');
    expect(r.context.failure?.code).toBe('END_ACTION');
  });

  it('ends the workflow successfully on a success-side end', async () => {
    const s = step('a', { onSuccess: [action('end')] });
    const judge = judgeOf([], () => ({ done: true }));
    const r = await runPlan(plan(s, step('b')), {}, { judge });
    expect(r.final).toBe('succeeded');
    expect(r.calls).toEqual(['a']);
    expect(r.context.outputs).toEqual({ done: true });
  });

  it('jumps on a success-side goto without marking the record', async () => {
    const s = step('a', { onSuccess: [action('goto', { targetIndex: 2 })] });
    const r = await runPlan(plan(s, step('b'), step('c')), {});
    expect(r.calls).toEqual(['a', 'c']);
    expect(r.context.records[0]).not.toHaveProperty('failedVia');
  });

  it('fails with StepBudgetExhausted inside a goto loop', async () => {
    const s = step('a', { onSuccess: [action('goto', { targetIndex: 0 })] });
    const r = await runPlan(plan(s), {}, { maxSteps: 50 });
    expect(r.final).toBe('failed');
    expect(r.calls).toHaveLength(50);
    expect(r.context.runs).toBe(50);
    expect(r.context.failure?.code).toBe('STEP_BUDGET_EXHAUSTED');
    expect(worded(r.context.failure)?.message).toMatch(/^StepBudgetExhausted/);
  });

  it('counts retries against the step budget', async () => {
    const s = step('a', { onFailure: [action('retry', { retryLimit: 10 })] });
    const r = await runPlan(plan(s), { a: [503] }, { maxSteps: 3 });
    expect(r.calls).toHaveLength(3);
    expect(r.context.failure?.code).toBe('STEP_BUDGET_EXHAUSTED');
  });

  it('records dry-run steps and moves on without judging them', async () => {
    const s = step('a', { onFailure: [action('end')] });
    const r = await runPlan(plan(s, step('b')), {}, { dryRun: true });
    expect(r.final).toBe('succeeded');
    expect(r.context.records).toEqual([
      { stepId: 'a', status: 0, dryRun: true, outputs: {} },
      { stepId: 'b', status: 0, dryRun: true, outputs: {} },
    ]);
  });

  it('fails at runtime on an unsupported step, but only when it is reached', async () => {
    const a = step('a', { onSuccess: [action('goto', { targetIndex: 2 })] });
    const r = await runPlan(plan(a, step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' } }), step('c')), {});
    expect(r.final).toBe('succeeded');
    const r2 = await runPlan(plan(step('a'), step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' } })), {});
    expect(r2.final).toBe('failed');
    expect(worded(r2.context.failure)).toEqual({ code: 'UNSUPPORTED', stepId: 'nested', message: 'nested workflows are not supported' });
  });

  it('fails at dispatch on an unsupported action, after earlier actions were considered', async () => {
    const judge = judgeOf([(s) => s === 404]);
    const s = step('a', {
      onFailure: [action('goto', { criteriaId: 0, targetIndex: 1 }), action('end', { fails: { code: 'UNSUPPORTED', reason: 'replay is not implemented in v1' } })],
    });
    const notFound = await runPlan(plan(s, step('b')), { a: [404] }, { judge });
    expect(notFound.final).toBe('succeeded');
    const other = await runPlan(plan(s, step('b')), { a: [500] }, { judge });
    expect(worded(other.context.failure)).toEqual({ code: 'UNSUPPORTED', stepId: 'a', message: 'replay is not implemented in v1' });
  });

  it('fails the step when an action criterion cannot be evaluated', async () => {
    const judge = { ...judgeOf([() => false]), criteriaError: () => '"$x >= 3": operand cannot be coerced to a number' };
    const s = step('a', { onSuccess: [action('end', { name: 'enough', criteriaId: 0, criteriaCanFail: true })] });
    const r = await runPlan(plan(s, step('b')), {}, { judge });
    expect(r.final).toBe('failed');
    expect(r.calls).toEqual(['a']);
    expect(worded(r.context.failure)).toEqual({
      code: 'STEP_FAILED',
      stepId: 'a',
      message: 'criteria of action "enough": "$x >= 3": operand cannot be coerced to a number',
    });
  });

  it('runs a workflow with no steps to success', async () => {
    const r = await runPlan(plan(), {});
    expect(r.final).toBe('succeeded');
  });
});

describe('compileWorkflow: what later steps can see', () => {
  it("keeps a step's data for later steps unless its outcome says nothing reads it, and keeps a stepId of __proto__ as an own key", async () => {
    const machine = compileWorkflow(plan(step('kept'), step('__proto__'), step('dropped')), judgeOf([]), async (input) => ({
      statusCode: 200,
      ok: true,
      dryRun: false,
      outputs: { n: input.stepIndex },
      data: { response: { body: input.stepId } },
      ...(input.stepId === 'dropped' ? { keepData: false } : {}),
    }));
    const actor = createActor(machine, { input: { inputs: {}, maxSteps: 10 } });
    const done = new Promise<void>((resolve) => actor.subscribe((snap) => snap.status === 'done' && resolve()));
    actor.start();
    await done;
    const steps = actor.getSnapshot().context.steps;
    expect(Object.keys(steps)).toEqual(['kept', '__proto__', 'dropped']);
    expect(steps.kept).toEqual({ response: { body: 'kept' }, outputs: { n: 0 } });
    expect(Object.getOwnPropertyDescriptor(steps, '__proto__')?.value).toEqual({ response: { body: '__proto__' }, outputs: { n: 1 } });
    expect(steps.dropped).toEqual({ outputs: { n: 2 } });
  });
});
