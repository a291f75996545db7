/**
 * Arazzo success and failure actions as XState transition configs on a step's `runStep.done`
 * event: one guarded transition per action (two for `retry`), tried in chain order, first match
 * wins. Success actions apply only when the step succeeded (`whenSucceeded`); failure actions come
 * after the step's "succeeded: on to the next step" transition, so they see only failures. Each
 * transition records the step (`recordStep`) before it leaves, carries the action as `meta` (name,
 * type, outcome) and the plan's label as `description`; failures are data.
 */
import { FAILED, SUB_STATE, SUCCEEDED, TRANSFERRED, stepTarget, subKey } from './state-keys.js';
import { and } from 'xstate';
import { callActorName, callInput, callSubStates } from './call-states.js';
import { RUN_STEP_DONE } from './step-runner.js';
import type { ActionMeta, ActionOutcome, ActionPlan, StepPlan, StepRecord, WorkflowPlan } from './types.js';
import type { ActionRef, CriteriaParams, RetryParams, StateConfig, TransitionConfig } from './workflow-setup.js';

type FailedVia = StepRecord['failedVia'];

/** The transitions of one success action: `end` to `succeeded`, `goto` to the target step. Throws on a plan that breaks its invariants. */
export function successTransitions(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): TransitionConfig[] {
  return [...brokenCriteriaTransitions(step, action, true), successTransition(plan, step, action)];
}

/** The transitions of one failure action. Throws on a plan that breaks its invariants. */
export function failureTransitions(plan: WorkflowPlan, step: StepPlan, index: number, action: ActionPlan): TransitionConfig[] {
  if (action.fails) return [plannedFailureTransition(step, action, false)];
  return [...brokenCriteriaTransitions(step, action, false), ...actionTransitions(plan, step, index, action)];
}

/** Whether a step's failure chain can retry it, so the step needs a `backoff` sub-state. */
export function canRetry(step: StepPlan): boolean {
  return step.onFailure.some((action) => action.type === 'retry' && !action.fails);
}

// One plain `recordStep` action per step, shared by all its transitions: a long workflow's chart
// otherwise held one action object and one params object per transition.
const records = new WeakMap<StepPlan, ActionRef>();

/** The `recordStep` action of a step (stores the outcome, records the step), optionally marking how a failed step was left. */
export function recordAction(step: StepPlan, failedVia?: FailedVia): ActionRef {
  const shared = failedVia === undefined ? records.get(step) : undefined;
  if (shared) return shared;
  const params: { stepId: string; failedVia?: FailedVia; call?: true } = { stepId: step.stepId };
  if (failedVia) params.failedVia = failedVia;
  if (step.call) params.call = true;
  const action: ActionRef = { type: 'recordStep', params };
  if (failedVia === undefined) records.set(step, action);
  return action;
}

/**
 * The sub-states where a retry action with a `stepId` (`retryStep_<n>`) or a `workflowId`
 * (`retryCall_<n>`) runs its step or workflow before the step's `backoff`; `n` is the action's
 * place in the failure chain. The step runs once whatever its outcome (recorded, no chain applies);
 * the workflow runs as a nested call with the current workflow's inputs, and its failure fails the
 * workflow.
 */
export function retrySubStates(plan: WorkflowPlan, step: StepPlan, index: number): Record<string, StateConfig> {
  const states: Record<string, StateConfig> = {};
  const backoff = stepTarget(index, step.stepId, SUB_STATE.backoff);
  step.onFailure.forEach((action, n) => {
    if (action.type !== 'retry' || action.fails) return;
    if (action.targetIndex !== undefined) {
      const target = plan.steps[action.targetIndex];
      if (!target) throw new Error(`step ${step.stepId}: retry action "${action.name}" has no target step`);
      const key = subKey(SUB_STATE.retryStep, n);
      if (target.call) {
        // A nested step runs as its own call; however it ends (but for a budget or depth that stop the run), it is recorded and the retry waits.
        states[key] = {
          initial: SUB_STATE.calling,
          states: callSubStates(target, action.targetIndex, `${stepTarget(index, step.stepId)}.${key}`),
          on: { [RUN_STEP_DONE]: { target: backoff, actions: { type: 'recordStep', params: { stepId: target.stepId, call: true } } } },
        };
        return;
      }
      states[key] = {
        entry: [{ type: 'startRun', params: { index: action.targetIndex, stepId: target.stepId } }, 'countRun'],
        on: { [RUN_STEP_DONE]: { target: backoff, actions: { type: 'recordStep', params: { stepId: target.stepId } } } },
      };
    } else if (action.workflow !== undefined) {
      const workflow = action.workflow;
      states[subKey(SUB_STATE.retryCall, n)] = {
        entry: action.inputsId === undefined ? 'startRetryCall' : { type: 'startRetryCall', params: { inputsId: action.inputsId } },
        invoke: {
          src: callActorName(workflow) as 'runStep',
          id: callActorName(workflow),
          input: callInput(step.stepId, workflow, (context) => context.call?.inputs ?? context.inputs),
          onDone: [
            { guard: 'callFatal', target: FAILED, actions: ['storeCallResult', 'recordCallSteps', { type: 'failFromCall', params: { stepId: step.stepId } }] },
            { guard: 'callFailed', target: FAILED, actions: ['storeCallResult', 'recordCallSteps', { type: 'failCall', params: { stepId: step.stepId, action: action.name, workflow } }] },
            { target: backoff, actions: ['storeCallResult', 'recordCallSteps'] },
          ],
        } as unknown as StateConfig['invoke'],
      };
    }
  });
  return states;
}

/** Where a retry action goes when it fires: `backoff`, or first the sub-state that runs its step or workflow. */
function retryTarget(step: StepPlan, index: number, action: ActionPlan): string {
  const n = step.onFailure.indexOf(action);
  if (action.targetIndex !== undefined) return stepTarget(index, step.stepId, SUB_STATE.retryStep, n);
  if (action.workflow !== undefined) return stepTarget(index, step.stepId, SUB_STATE.retryCall, n);
  return stepTarget(index, step.stepId, SUB_STATE.backoff);
}

function meta(action: ActionPlan, outcome: ActionOutcome): ActionMeta {
  const found: ActionMeta = { action: action.name, actionType: action.type, outcome };
  if (action.criteriaText !== undefined && action.criteriaText.length > 0) found.criteria = action.criteriaText;
  return found;
}

/** The transition of a goto to another workflow: the step is recorded and the workflow ends `transferred`. */
function transferTransition(step: StepPlan, action: ActionPlan, guard: TransitionConfig['guard'], failedVia?: FailedVia): TransitionConfig {
  return {
    guard,
    target: TRANSFERRED,
    description: action.label,
    meta: meta(action, 'fired'),
    actions: [recordAction(step, failedVia), { type: 'transferTo', params: action.inputsId === undefined ? { to: action.workflow!, stepId: step.stepId } : { to: action.workflow!, stepId: step.stepId, inputsId: action.inputsId } }],
  };
}

function gotoTarget(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): string {
  const target = action.targetIndex === undefined ? undefined : plan.steps[action.targetIndex];
  if (!target) throw new Error(`step ${step.stepId}: goto action "${action.name}" has no target step`);
  return stepTarget(action.targetIndex!, target.stepId);
}

function criteriaGuard(action: ActionPlan, whenSucceeded: boolean): { type: 'criteriaHold'; params: CriteriaParams } {
  return { type: 'criteriaHold', params: whenSucceeded ? { criteriaId: action.criteriaId, whenSucceeded: true } : { criteriaId: action.criteriaId } };
}

/** An action the planner decided the run cannot carry out: when its criteria hold, the workflow fails with its planned failure. */
function plannedFailureTransition(step: StepPlan, action: ActionPlan, whenSucceeded: boolean): TransitionConfig {
  const actions: ActionRef[] = [recordAction(step), { type: 'fail', params: { code: action.fails!.code, stepId: step.stepId, reason: action.fails!.reason } }];
  return {
    guard: criteriaGuard(action, whenSucceeded),
    target: FAILED,
    description: action.label,
    meta: meta(action, 'failed'),
    actions,
  };
}

/** When an action's criteria cannot be evaluated (an ordering comparison on a non-number), the step fails. */
function brokenCriteriaTransitions(step: StepPlan, action: ActionPlan, whenSucceeded: boolean): TransitionConfig[] {
  if (!action.criteriaCanFail || action.criteriaId === undefined) return [];
  const actions: ActionRef[] = [recordAction(step), { type: 'failOnCriteria', params: { stepId: step.stepId, criteriaId: action.criteriaId, action: action.name } }];
  return [
    {
      guard: { type: 'criteriaBroken', params: whenSucceeded ? { criteriaId: action.criteriaId, whenSucceeded: true as const } : { criteriaId: action.criteriaId } },
      target: FAILED,
      description: action.label,
      meta: meta(action, 'criteriaBroken'),
      actions,
    },
  ];
}

function successTransition(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): TransitionConfig {
  if (action.fails) return plannedFailureTransition(step, action, true);
  const guard = criteriaGuard(action, true);
  const actions = recordAction(step);
  switch (action.type) {
    case 'end':
      return { guard, target: SUCCEEDED, description: action.label, meta: meta(action, 'fired'), actions };
    case 'goto':
      if (action.workflow !== undefined) return transferTransition(step, action, guard);
      return { guard, target: gotoTarget(plan, step, action), reenter: true, description: action.label, meta: meta(action, 'fired'), actions };
    default:
      throw new Error(`step ${step.stepId}: a success chain cannot hold a ${action.type} action ("${action.name}")`);
  }
}

function actionTransitions(plan: WorkflowPlan, step: StepPlan, index: number, action: ActionPlan): TransitionConfig[] {
  const guard = criteriaGuard(action, false);
  const description = action.label;
  switch (action.type) {
    case 'end':
      return [
        {
          guard,
          target: FAILED,
          description,
          meta: meta(action, 'fired'),
          actions: [recordAction(step, 'on-failure-end'), { type: 'fail', params: { code: 'END_ACTION', stepId: step.stepId, action: action.name } }],
        },
      ];
    case 'goto':
      if (action.workflow !== undefined) return [transferTransition(step, action, guard, 'on-failure-goto')];
      return [
        { guard, target: gotoTarget(plan, step, action), reenter: true, description, meta: meta(action, 'fired'), actions: recordAction(step, 'on-failure-goto') },
      ];
    case 'retry': {
      // With per-action counting, the action counts its retries by its place in the failure chain.
      const allowed: RetryParams = { criteriaId: action.criteriaId, retryLimit: action.retryLimit };
      if (plan.retriesPerAction) allowed.counter = step.onFailure.indexOf(action);
      const schedule = plan.retriesPerAction ? { retryAfterSeconds: action.retryAfterSeconds, counter: allowed.counter! } : { retryAfterSeconds: action.retryAfterSeconds };
      // A retry that runs a workflow is a nested call: past the depth limit it stops the run, as a nested step's call does.
      const tooDeep: TransitionConfig[] =
        action.workflow === undefined
          ? []
          : [
              // No meta: the action does not fire; the engine stops the run (graphs and traces leave it out, as budgetSpent).
              {
                guard: and([{ type: 'retryAllowed', params: allowed }, 'depthExceeded']),
                target: FAILED,
                actions: [recordAction(step), { type: 'failDepth', params: { stepId: step.stepId } }],
              },
            ];
      const retry: TransitionConfig = {
        guard: { type: 'retryAllowed', params: allowed },
        target: retryTarget(step, index, action),
        description,
        meta: meta(action, 'fired'),
        actions: [recordAction(step), { type: 'scheduleRetry', params: schedule }],
      };
      // A retry whose limit is reached may let the chain go on (its limitReachedTransition then comes last).
      return plan.retryLimitContinuesChain ? [...tooDeep, retry] : [...tooDeep, retry, limitReachedTransition(step, action)];
    }
  }
}

/**
 * The transition of a retry action whose criteria hold but whose limit is reached: the workflow
 * fails with RETRIES_EXHAUSTED. It follows the action's own retry transition, or, with
 * WorkflowPlan.retryLimitContinuesChain, comes after the whole failure chain, so that a later
 * action whose criteria hold is taken first.
 */
export function limitReachedTransition(step: StepPlan, action: ActionPlan): TransitionConfig {
  return {
    guard: criteriaGuard(action, false),
    target: FAILED,
    description: action.label,
    meta: meta(action, 'limitReached'),
    actions: [recordAction(step), { type: 'fail', params: { code: 'RETRIES_EXHAUSTED', stepId: step.stepId, action: action.name, retryLimit: action.retryLimit } }],
  };
}
