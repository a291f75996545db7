/** The step budget is checked before a step with a planned failure (one the runner profile refuses) fails, whichever way the step is reached. */
import { describe, expect, it } from '@jest/globals';
import { action, runPlan, step, worded } from './harness.js';

const plan = (...steps: ReturnType<typeof step>[]) => ({ workflowId: 'wf', steps });
const refused = step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' } });

describe('a step with a planned failure, reached with the step budget used up', () => {
  it('fails with StepBudgetExhausted when the step before it used the last run', async () => {
    const r = await runPlan(plan(step('a'), refused), {}, { maxSteps: 1 });
    expect(r.calls).toEqual(['a']);
    expect(worded(r.context.failure)?.code).toBe('STEP_BUDGET_EXHAUSTED');
    expect(r.context.failure?.stepId).toBe('nested');
  });

  it('fails with StepBudgetExhausted when a goto reaches it after the last run', async () => {
    const a = step('a', { onSuccess: [action('goto', { targetIndex: 2 })] });
    const r = await runPlan(plan(a, step('b'), refused), {}, { maxSteps: 1 });
    expect(r.calls).toEqual(['a']);
    expect(r.context.failure).toMatchObject({ code: 'STEP_BUDGET_EXHAUSTED', stepId: 'nested' });
  });

  it('fails with its planned code, counting its run, while the budget has room', async () => {
    const r = await runPlan(plan(step('a'), refused), {}, { maxSteps: 2 });
    expect(r.context.failure).toMatchObject({ code: 'UNSUPPORTED', stepId: 'nested' });
    expect(r.context.runs).toBe(2);
  });
});
