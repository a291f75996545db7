/**
 * Arazzo 1.1 in-flight steps (an AsyncAPI receive): launched at their place, the workflow goes on
 * with the steps that do not depend on them, and their own state (the join) runs just before the
 * first step that does, or at the end; their chains apply there.
 */
import { describe, expect, it } from '@jest/globals';
import { action, runPlan, step } from './harness.js';
import type { WorkflowPlan } from '../../machines/types.js';

const plan = (joinAt: number, extra: Partial<WorkflowPlan['steps'][number]> = {}): WorkflowPlan => ({
  workflowId: 'order',
  steps: [step('send'), step('confirm', { inFlight: { joinAt }, ...extra }), step('other'), step('status')],
});

describe('in-flight steps', () => {
  it('launch at their place and join before the first step that depends on them', async () => {
    const result = await runPlan(plan(3), {});
    expect(result.final).toBe('succeeded');
    // `confirm` runs twice: launched after `send`, taken at its join after `other`.
    expect(result.calls).toEqual(['send', 'confirm', 'other', 'confirm', 'status']);
    expect(result.context.records.map((r) => r.stepId)).toEqual(['send', 'other', 'confirm', 'status']);
  });

  it('join at the end when no step depends on them', async () => {
    const result = await runPlan(plan(4), {});
    expect(result.calls).toEqual(['send', 'confirm', 'other', 'status', 'confirm']);
    expect(result.context.records.map((r) => r.stepId)).toEqual(['send', 'other', 'status', 'confirm']);
  });

  it('fail the workflow at their join when they failed and no chain says otherwise', async () => {
    const result = await runPlan(plan(3), { confirm: [200, 0] });
    expect(result.final).toBe('failed');
    expect(result.calls).toEqual(['send', 'confirm', 'other', 'confirm']);
    expect(result.context.failure).toMatchObject({ code: 'STEP_FAILED', stepId: 'confirm' });
  });

  it('apply their failure chain at the join: a retry runs them again there', async () => {
    const result = await runPlan(plan(3, { onFailure: [action('retry', { retryLimit: 2 })], onFailureFrom: 'step' }), { confirm: [200, 0, 200] });
    expect(result.final).toBe('succeeded');
    expect(result.calls).toEqual(['send', 'confirm', 'other', 'confirm', 'confirm', 'status']);
  });
});

describe('steps that depend on steps of other workflows (Arazzo 1.1)', () => {
  const requires = [{ key: 'setup/login', label: 'step "login" of workflow "setup"' }];

  it('fail before they run when the step has not succeeded in the run, whether or not they can retry', async () => {
    for (const extra of [{}, { onFailure: [action('retry', { retryLimit: 2 })], onFailureFrom: 'step' as const }]) {
      const result = await runPlan({ workflowId: 'main', steps: [step('first'), step('use', { requires, ...extra })] }, {});
      expect(result.final).toBe('failed');
      expect(result.calls).toEqual(['first']);
      expect(result.context.failure).toMatchObject({ code: 'STEP_DEPENDENCY_NOT_MET', stepId: 'use' });
    }
  });
});
