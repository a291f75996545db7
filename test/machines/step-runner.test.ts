import { describe, expect, it } from '@jest/globals';
import { createActor, waitFor } from 'xstate';
import { compileWorkflow, type StepRunner } from '../../machines/compile-workflow.js';
import type { StepOutcome, WorkflowPlan } from '../../machines/types.js';
import { action, judgeOf, step, worded } from './harness.js';

const ok: StepOutcome = { statusCode: 200, ok: true, dryRun: false, outputs: {} };

function start(plan: WorkflowPlan, runner: StepRunner) {
  const actor = createActor(compileWorkflow(plan, judgeOf([]), runner), { input: { inputs: { token: 't' }, maxSteps: 100 } });
  actor.start();
  return actor;
}

describe('the runStep actor', () => {
  it('runs each step once, in order, with the inputs and the earlier steps it can see', async () => {
    const seen: Array<[number, string, string[]]> = [];
    const plan = { workflowId: 'wf', steps: [step('a'), step('b')] };
    const actor = start(plan, async (input) => {
      seen.push([input.stepIndex, input.stepId, Object.keys(input.steps)]);
      expect(input.inputs).toEqual({ token: 't' });
      return { ...ok, outputs: { n: input.stepIndex } };
    });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(seen).toEqual([
      [0, 'a', []],
      [1, 'b', ['a']],
    ]);
    expect(done.context.steps.b?.outputs).toEqual({ n: 1 });
  });

  it('fails the step with an internal error when the step body rejects, and runs no later step', async () => {
    const calls: string[] = [];
    const plan = { workflowId: 'wf', steps: [step('a'), step('b')] };
    const actor = start(plan, async (input) => {
      calls.push(input.stepId);
      throw new Error('boom');
    });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.value).toBe('failed');
    expect(calls).toEqual(['a']);
    expect(worded(done.context.failure)).toEqual({ code: 'STEP_FAILED', stepId: 'a', message: 'internal error: boom' });
    expect(done.context.records).toEqual([{ stepId: 'a', status: 0, dryRun: false, outputs: {} }]);
  });

  it('treats a step body that throws before returning a promise like one that rejects', async () => {
    const plan = { workflowId: 'wf', steps: [step('a')] };
    const actor = start(plan, () => {
      throw new Error('sync boom');
    });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(worded(done.context.failure)?.message).toBe('internal error: sync boom');
  });

  it('lets a failure chain handle a crash, as it would any failed step', async () => {
    let runs = 0;
    const plan = { workflowId: 'wf', steps: [step('a', { onFailure: [action('retry')] })] };
    const actor = start(plan, async () => {
      runs += 1;
      if (runs === 1) throw new Error('flaky bug');
      return ok;
    });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.value).toBe('succeeded');
    expect(runs).toBe(2);
  });

  it('aborts the run in flight when the workflow is stopped, and drops its late result', async () => {
    let aborted = false;
    let finish: (outcome: StepOutcome) => void = () => undefined;
    const plan = { workflowId: 'wf', steps: [step('a'), step('b')] };
    const calls: string[] = [];
    const actor = start(plan, (input, signal) => {
      calls.push(input.stepId);
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise<StepOutcome>((resolve) => (finish = resolve));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['a']);
    actor.stop();
    expect(aborted).toBe(true);
    finish(ok);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['a']);
    expect(actor.getSnapshot().status).toBe('stopped');
    expect(actor.getSnapshot().context.records).toEqual([]);
  });

  it('does not abort a run that has settled when the workflow ends', async () => {
    const signals: AbortSignal[] = [];
    const plan = { workflowId: 'wf', steps: [step('a')] };
    const actor = start(plan, async (_input, signal) => {
      signals.push(signal);
      return ok;
    });
    await waitFor(actor, (s) => s.status === 'done');
    expect(signals.map((s) => s.aborted)).toEqual([false]);
  });
});
