import { canRetry, failureTransitions, recordAction, successTransitions } from './chain-transitions.js';
import { FAILED, SUB_STATE, SUCCEEDED, stepKey, stepTarget, type SubState } from './state-keys.js';
import { RUN_STEP_DONE, RUN_STEP_ERROR, type StepRunner } from './step-runner.js';
import type { FailureCode, Judge, StepPlan, WorkflowContext, WorkflowPlan } from './types.js';
import { workflowSetup, type ActionRef, type StateConfig, type TransitionConfig } from './workflow-setup.js';

export type { StepRunner } from './step-runner.js';

/**
 * Compiles one workflow plan into an XState machine: a state per step and the finals `succeeded`
 * and `failed`. A step has the sub-states `entering` and `calling`, plus `onSuccess`, `onFailure`
 * and `backoff` only when its chains need them. The step's outcome is judged on the transitions of
 * `calling`'s `runStep.done` event; action chains become ordered guarded eventless transitions,
 * the last one being "no action applies". `runStep` runs the step bodies, in one actor invoked at
 * the root (tests may swap it with `machine.provide()`). Failures are recorded as data
 * (`RunFailure`); src/run words them. Throws on a plan that breaks its invariants (a goto without a
 * target, a retry in a success chain): src/run validates first.
 */
export function compileWorkflow(plan: WorkflowPlan, judge: Judge, runStep?: StepRunner) {
  const states: Record<string, StateConfig> = {};
  plan.steps.forEach((step, index) => {
    states[stepKey(index, step.stepId)] = stepState(plan, step, index);
  });
  states.succeeded = { type: 'final', entry: 'computeOutputs' };
  states.failed = { type: 'final' };

  return workflowSetup(judge, runStep).createMachine({
    id: 'workflow',
    description: `Arazzo workflow ${plan.workflowId}`,
    invoke: { src: 'runStep', id: 'runStep' },
    context: ({ input }) => ({
      workflowId: plan.workflowId,
      inputs: input.inputs,
      // A null-prototype object starts in V8's dictionary mode: adding a thousand step ids one by
      // one to a `{}` copied its growing descriptor array each time (O(n²), 6 ms at 1000 steps).
      steps: Object.create(null) as WorkflowContext['steps'],
      records: [],
      runs: 0,
      maxSteps: input.maxSteps,
      retries: 0,
      current: 0,
      retryDelayMs: 0,
      outputs: {},
    }),
    initial: plan.steps.length > 0 ? stepKey(0, plan.steps[0]!.stepId) : 'succeeded',
    states,
  });
}

export type WorkflowMachine = ReturnType<typeof compileWorkflow>;

/** Where a step goes when it is done and no action moves it elsewhere. */
function nextTarget(plan: WorkflowPlan, index: number): string {
  const next = plan.steps[index + 1];
  return next ? stepTarget(index + 1, next.stepId) : SUCCEEDED;
}

function failAction(step: StepPlan, code: FailureCode, reason?: string): ActionRef {
  return { type: 'fail', params: reason === undefined ? { code, stepId: step.stepId } : { code, stepId: step.stepId, reason } };
}

function stepState(plan: WorkflowPlan, step: StepPlan, index: number): StateConfig {
  const states: Record<string, StateConfig> = {
    [SUB_STATE.entering]: {
      always: [
        { guard: 'budgetSpent', target: FAILED, actions: failAction(step, 'STEP_BUDGET_EXHAUSTED') },
        { target: stepTarget(index, step.stepId, SUB_STATE.calling), actions: 'countRun' },
      ],
    },
  };
  if (step.unsupported) {
    // v1 cannot run this step: it fails when reached, so none of its chains can apply.
    states[SUB_STATE.calling] = { always: { target: FAILED, actions: failAction(step, 'UNSUPPORTED', step.unsupported) } };
  } else {
    Object.assign(states, runStates(plan, step, index));
  }
  return {
    meta: { stepId: step.stepId, index },
    entry: { type: 'enterStep', params: { index } },
    initial: SUB_STATE.entering,
    states,
  };
}

/** `calling` and the chain states of a step v1 can run. */
function runStates(plan: WorkflowPlan, step: StepPlan, index: number): Record<string, StateConfig> {
  const at = (sub: SubState) => stepTarget(index, step.stepId, sub);
  const next = nextTarget(plan, index);
  const record = recordAction(step);
  // Judging happens on the transitions out of `calling`. Without a success chain the step is
  // recorded on its way to the next step; without a failure chain on its way to `failed`.
  const succeeded: TransitionConfig =
    step.onSuccess.length > 0
      ? { guard: 'stepSucceeded', target: at(SUB_STATE.onSuccess), actions: 'storeOutcome' }
      : { guard: 'stepSucceeded', target: next, reenter: true, actions: ['storeOutcome', record] };
  const failed = (store: 'storeOutcome' | 'storeCrash'): TransitionConfig =>
    step.onFailure.length > 0
      ? { target: at(SUB_STATE.onFailure), actions: store }
      : { target: FAILED, actions: [store, record, failAction(step, 'STEP_FAILED')] };
  const states: Record<string, StateConfig> = {
    [SUB_STATE.calling]: {
      entry: { type: 'startRun', params: { index, stepId: step.stepId } },
      on: {
        [RUN_STEP_DONE]: [{ guard: 'wasDryRun', target: next, reenter: true, actions: ['storeOutcome', record] }, succeeded, failed('storeOutcome')],
        // A crash of the step body (a bug) fails the step like any other failure.
        [RUN_STEP_ERROR]: failed('storeCrash'),
      },
    },
  };
  if (step.onSuccess.length > 0) {
    states[SUB_STATE.onSuccess] = {
      entry: record,
      // The last transition is "no success action applies": on to the next step.
      always: [...step.onSuccess.flatMap((action) => successTransitions(plan, step, action)), { target: next, reenter: true }],
    };
  }
  if (step.onFailure.length > 0) {
    states[SUB_STATE.onFailure] = {
      // The last transition is "no failure action applies": the step's failure stops the workflow.
      always: [
        ...step.onFailure.flatMap((action) => failureTransitions(plan, step, index, action)),
        { target: FAILED, actions: [record, failAction(step, 'STEP_FAILED')] },
      ],
    };
  }
  if (canRetry(step)) states[SUB_STATE.backoff] = { after: { retryDelay: { target: at(SUB_STATE.entering) } } };
  return states;
}
