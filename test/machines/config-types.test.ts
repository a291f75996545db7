/**
 * The machine config is typed from `setup()`: a misspelled guard, action or parameter does not
 * compile. The checks are the `@ts-expect-error` lines, verified by `tsc --noEmit` (jest only runs them).
 */
import { describe, expect, it } from '@jest/globals';
import type { StateConfig, TransitionConfig } from '../../machines/workflow-setup.js';

describe('the machine config types', () => {
  it('accept the guards, actions, params and meta registered in setup() and refuse others', () => {
    const ok: TransitionConfig = {
      guard: { type: 'retryAllowed', params: { criteriaId: 0, retryLimit: 2 } },
      target: '#workflow.failed',
      meta: { action: 'again', actionType: 'retry', outcome: 'limitReached' },
      actions: [{ type: 'recordStep', params: { stepId: 'a' } }, { type: 'fail', params: { code: 'RETRIES_EXHAUSTED', stepId: 'a', action: 'again', retryLimit: 2 } }],
    };
    const state: StateConfig = { entry: { type: 'enterStep', params: { index: 0 } }, meta: { stepId: 'a', index: 0 }, always: ok };
    // @ts-expect-error a misspelled guard
    const badGuard: TransitionConfig = { guard: 'budgetSpnt' };
    // @ts-expect-error an action that setup() does not register
    const badAction: TransitionConfig = { actions: 'countRuns' };
    // @ts-expect-error a parameter the action does not take
    const badParams: TransitionConfig = { actions: { type: 'enterStep', params: { idx: 0 } } };
    // A planned failure brings its own code (PlannedFailure), so `fail` takes any code; a missing stepId is still an error.
    // @ts-expect-error a fail action without its step
    const badCode: TransitionConfig = { actions: { type: 'fail', params: { code: 'OOPS' } } };
    // @ts-expect-error an outcome that does not exist
    const badMeta: TransitionConfig = { meta: { action: 'a', actionType: 'end', outcome: 'limit reached' } };
    expect([ok, state, badGuard, badAction, badParams, badCode, badMeta]).toHaveLength(7);
  });
});
