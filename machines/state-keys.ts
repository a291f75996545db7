/** Predictable state keys, so graphs, traces and tests read the same names. */
import type { WorkflowPlan } from './types.js';

/**
 * Keys of a step's sub-states. Only a step whose failure chain can retry it has sub-states:
 * `calling`, where it runs, and `backoff`, where it waits before running again. Every other step
 * is one atomic state (docs/state-machine.md).
 */
export const SUB_STATE = {
  calling: 'calling',
  backoff: 'backoff',
  /** A nested step: the called workflow runs (`invoking`, or `invoking_<n>` for the n-th workflow a transfer can move the call to), then the step is judged. */
  invoking: 'invoking',
  judging: 'judging',
  /** A retry action with a `stepId` or `workflowId` runs it here before `backoff`; `_<n>` is the action's place in the chain. */
  retryStep: 'retryStep',
  retryCall: 'retryCall',
  /** Arazzo 1.1: a step that depends on steps of other workflows checks they succeeded before `calling`. */
  requires: 'requires',
} as const;

export type SubState = (typeof SUB_STATE)[keyof typeof SUB_STATE];

/** Key of step `index`'s state: `s<index>_<stepId with anything but [A-Za-z0-9_] as _>`. */
export function stepKey(index: number, stepId: string): string {
  return `s${index}_${stepId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Absolute target of a step's state, or of one of its sub-states (`n`: which one of several, e.g. `invoking_1`). */
export function stepTarget(index: number, stepId: string, sub?: SubState, n?: number): string {
  return `#workflow.${stepKey(index, stepId)}${sub ? `.${subKey(sub, n)}` : ''}`;
}

/** Key of a sub-state: `invoking`, or `invoking_<n>` for the n-th of its kind. */
export function subKey(sub: SubState, n?: number): string {
  return n === undefined || n === 0 ? sub : `${sub}_${n}`;
}

export const SUCCEEDED = '#workflow.succeeded';
export const FAILED = '#workflow.failed';
/** The final state of a workflow that ended by a goto to another workflow. */
export const TRANSFERRED = '#workflow.transferred';

/**
 * The order of the workflow's states: each step at its place, except an in-flight step (Arazzo
 * 1.1 async receive), which is launched at its place (`launch`) and has its own state (its join)
 * just before the first step that depends on it, or at the end. A goto to it goes to its join,
 * which then runs it there (nothing was launched).
 */
export function stateOrder(plan: WorkflowPlan): Array<{ index: number; launch?: true }> {
  const order: Array<{ index: number; launch?: true }> = [];
  const joins = (at: number) => plan.steps.forEach((step, index) => step.inFlight?.joinAt === at && order.push({ index }));
  plan.steps.forEach((step, index) => {
    joins(index);
    order.push(step.inFlight ? { index, launch: true } : { index });
  });
  joins(plan.steps.length);
  return order;
}

/** Key of an in-flight step's launch state: its step key with `_launch`. */
export function launchKey(index: number, stepId: string): string {
  return `${stepKey(index, stepId)}_launch`;
}
