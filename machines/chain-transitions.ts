/**
 * Arazzo success and failure actions as XState transition configs on a step's `runStep.done`
 * event: one guarded transition per action (two for `retry`), tried in chain order, first match
 * wins. Success actions apply only when the step succeeded (`whenSucceeded`); failure actions come
 * after the step's "succeeded: on to the next step" transition, so they see only failures. Each
 * transition records the step (`recordStep`) before it leaves, carries the action as `meta` (name,
 * type, outcome) and the plan's label as `description`; failures are data.
 */
import { FAILED, SUB_STATE, SUCCEEDED, stepTarget } from './state-keys.js';
import type { ActionMeta, ActionOutcome, ActionPlan, StepPlan, StepRecord, WorkflowPlan } from './types.js';
import type { ActionRef, CriteriaParams, TransitionConfig } from './workflow-setup.js';

type FailedVia = StepRecord['failedVia'];

/** The transitions of one success action: `end` to `succeeded`, `goto` to the target step. Throws on a plan that breaks its invariants. */
export function successTransitions(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): TransitionConfig[] {
  return [...brokenCriteriaTransitions(step, action, true), successTransition(plan, step, action)];
}

/** The transitions of one failure action. Throws on a plan that breaks its invariants. */
export function failureTransitions(plan: WorkflowPlan, step: StepPlan, index: number, action: ActionPlan): TransitionConfig[] {
  if (action.unsupported) return [unsupportedTransition(step, action, false)];
  return [...brokenCriteriaTransitions(step, action, false), ...actionTransitions(plan, step, index, action)];
}

/** Whether a step's failure chain can retry it, so the step needs a `backoff` sub-state. */
export function canRetry(step: StepPlan): boolean {
  return step.onFailure.some((action) => action.type === 'retry' && !action.unsupported);
}

/** The `recordStep` action of a step (stores the outcome, records the step), optionally marking how a failed step was left. */
export function recordAction(step: StepPlan, failedVia?: FailedVia): ActionRef {
  return { type: 'recordStep', params: failedVia ? { stepId: step.stepId, failedVia } : { stepId: step.stepId } };
}

function meta(action: ActionPlan, outcome: ActionOutcome): ActionMeta {
  const found: ActionMeta = { action: action.name, actionType: action.type, outcome };
  if (action.criteriaText !== undefined && action.criteriaText.length > 0) found.criteria = action.criteriaText;
  return found;
}

function gotoTarget(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): string {
  const target = action.targetIndex === undefined ? undefined : plan.steps[action.targetIndex];
  if (!target) throw new Error(`step ${step.stepId}: goto action "${action.name}" has no target step`);
  return stepTarget(action.targetIndex!, target.stepId);
}

function criteriaGuard(action: ActionPlan, whenSucceeded: boolean): { type: 'criteriaHold'; params: CriteriaParams } {
  return { type: 'criteriaHold', params: whenSucceeded ? { criteriaId: action.criteriaId, whenSucceeded: true } : { criteriaId: action.criteriaId } };
}

function unsupportedTransition(step: StepPlan, action: ActionPlan, whenSucceeded: boolean): TransitionConfig {
  const actions: ActionRef[] = [recordAction(step), { type: 'fail', params: { code: 'UNSUPPORTED', stepId: step.stepId, reason: action.unsupported } }];
  return {
    guard: criteriaGuard(action, whenSucceeded),
    target: FAILED,
    description: action.label,
    meta: meta(action, 'unsupported'),
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
  if (action.unsupported) return unsupportedTransition(step, action, true);
  const guard = criteriaGuard(action, true);
  const actions = recordAction(step);
  switch (action.type) {
    case 'end':
      return { guard, target: SUCCEEDED, description: action.label, meta: meta(action, 'fired'), actions };
    case 'goto':
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
      return [
        { guard, target: gotoTarget(plan, step, action), reenter: true, description, meta: meta(action, 'fired'), actions: recordAction(step, 'on-failure-goto') },
      ];
    case 'retry':
      return [
        {
          guard: { type: 'retryAllowed', params: { criteriaId: action.criteriaId, retryLimit: action.retryLimit } },
          target: stepTarget(index, step.stepId, SUB_STATE.backoff),
          description,
          meta: meta(action, 'fired'),
          actions: [recordAction(step), { type: 'scheduleRetry', params: { retryAfterSeconds: action.retryAfterSeconds } }],
        },
        {
          guard,
          target: FAILED,
          description,
          meta: meta(action, 'limitReached'),
          actions: [
            recordAction(step),
            { type: 'fail', params: { code: 'RETRIES_EXHAUSTED', stepId: step.stepId, action: action.name, retryLimit: action.retryLimit } },
          ],
        },
      ];
  }
}
