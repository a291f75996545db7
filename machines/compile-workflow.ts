import { callSubStates } from './call-states.js';
import { canRetry, failureTransitions, limitReachedTransition, recordAction, retrySubStates, successTransitions } from './chain-transitions.js';
import { FAILED, launchKey, stateOrder, SUB_STATE, SUCCEEDED, stepKey, stepTarget } from './state-keys.js';
import { RUN_BUDGET_SPENT, RUN_STEP_DONE, type StepRunner } from './step-runner.js';
import type { Judge, RunFailure, RunShared, StepPlan, WorkflowContext, WorkflowPlan, WorkflowResult } from './types.js';
import { shapeTransitions } from './transition-shape.js';
import { NO_RETRIES, workflowSetup, type ActionRef, type StateConfig, type TransitionConfig } from './workflow-setup.js';

/** Default nesting depth of workflow calls (`--tool-max-depth`). */
export const DEFAULT_MAX_DEPTH = 32;

export { callActorName } from './call-states.js';

export type { StepRunner } from './step-runner.js';

/**
 * Compiles one workflow plan into an XState machine: a state per step and the finals `succeeded`
 * and `failed`. A step is one atomic state: entering it runs the step (`startRun` sends the
 * `runStep` actor a `run` event), and the transitions of its `runStep.done` event judge the
 * outcome and apply the action chains, in order, first match wins, the last one being "no action
 * applies". Only a step whose failure chain can retry it is compound, with `calling` and
 * `backoff`. `runStep` runs the step bodies, in one actor invoked at the root (tests may swap it
 * with `machine.provide()`). Failures are recorded as data (`RunFailure`); src/run words them.
 * Throws on a plan that breaks its invariants (a goto without a target, a retry in a success
 * chain): src/run validates first.
 */
export function compileWorkflow(plan: WorkflowPlan, judge: Judge, runStep?: StepRunner, calls?: Record<string, unknown>) {
  const states: Record<string, StateConfig> = {};
  const order = stateOrder(plan);
  order.forEach((entry, position) => {
    const step = plan.steps[entry.index]!;
    const next = order[position + 1];
    const after = next === undefined ? SUCCEEDED : next.launch ? launchTarget(next.index, plan.steps[next.index]!.stepId) : stepTarget(next.index, plan.steps[next.index]!.stepId);
    if (entry.launch) states[launchKey(entry.index, step.stepId)] = launchState(step, entry.index, after);
    else states[stepKey(entry.index, step.stepId)] = stepState(plan, step, entry.index, after);
  });
  // The label keeps Mermaid from drawing the state as its entry action alone.
  states.succeeded = { type: 'final', description: 'succeeded', entry: 'computeOutputs' };
  states.failed = { type: 'final' };
  if (transfers(plan)) states.transferred = { type: 'final', description: 'transferred' };
  const key = plan.key ?? plan.workflowId;
  shapeTransitions(states);

  return workflowSetup(judge, runStep, calls).createMachine({
    id: 'workflow',
    description: `Arazzo workflow ${plan.workflowId}`,
    invoke: { src: 'runStep', id: 'runStep' },
    // A step run the budget did not allow: whichever step asked, the workflow fails.
    on: { [RUN_BUDGET_SPENT]: { target: FAILED, actions: 'failBudget' } },
    output: ({ context }) => resultOf(context),
    context: ({ input }) => ({
      workflowId: plan.workflowId,
      key,
      via: input.via ?? [],
      actor: input.actor ?? key,
      stack: [...(input.stack ?? []), key],
      depth: input.depth ?? 0,
      run: input.run ?? newRunShared(input.maxSteps),
      recordsWorkflowId: plan.recordsWorkflowId === true,
      inputs: input.inputs,
      // A null-prototype object starts in V8's dictionary mode: adding a thousand step ids one by
      // one to a `{}` copied its growing descriptor array each time (O(n²), 6 ms at 1000 steps).
      steps: Object.create(null) as WorkflowContext['steps'],
      records: [],
      runs: 0,
      maxSteps: input.maxSteps,
      retries: 0,
      actionRetries: NO_RETRIES,
      current: 0,
      retryDelayMs: 0,
      outputs: {},
    }),
    initial: order.length === 0 ? 'succeeded' : order[0]!.launch ? launchKey(0, plan.steps[0]!.stepId) : stepKey(order[0]!.index, plan.steps[order[0]!.index]!.stepId),
    states,
  });
}

export type WorkflowMachine = ReturnType<typeof compileWorkflow>;

/** What the machines of one run share, for a run that starts with no other machine. */
export function newRunShared(maxSteps: number, maxDepth = DEFAULT_MAX_DEPTH): RunShared {
  return { runs: 0, maxSteps, maxDepth, workflows: Object.create(null) as RunShared['workflows'], completed: Object.create(null) as RunShared['completed'] };
}

/** How the workflow ended, from its final context. */
function resultOf(context: WorkflowContext): WorkflowResult {
  const status = context.failure !== undefined ? 'failed' : context.transfer !== undefined ? 'transferred' : 'succeeded';
  const result: WorkflowResult = { workflowId: context.workflowId, key: context.key, status, inputs: context.inputs, outputs: status === 'succeeded' ? context.outputs : {}, records: context.records };
  if (context.failure) result.failure = context.failure;
  if (context.transfer) result.transfer = context.transfer;
  return result;
}

/** Whether a goto of the workflow can transfer to another workflow. */
function transfers(plan: WorkflowPlan): boolean {
  return plan.steps.some((step) => [...step.onSuccess, ...step.onFailure].some((action) => action.type === 'goto' && action.workflow !== undefined && !action.fails));
}

function launchTarget(index: number, stepId: string): string {
  return `#workflow.${launchKey(index, stepId)}`;
}

/** An in-flight step's launch: the runner starts it (`launch` answers at once) and the workflow goes on; its outcome is taken at its join. */
function launchState(step: StepPlan, index: number, next: string): StateConfig {
  const meta = { stepId: step.stepId, index, launch: true };
  return {
    meta,
    description: `launch ${step.stepId}`,
    entry: { type: 'startRun', params: { index, stepId: step.stepId, phase: 'launch' } },
    on: { [RUN_STEP_DONE]: { target: next } },
  };
}

function failAction(step: StepPlan, code: RunFailure['code'], reason?: string): ActionRef {
  return { type: 'fail', params: reason === undefined ? { code, stepId: step.stepId } : { code, stepId: step.stepId, reason } };
}

function stepState(plan: WorkflowPlan, step: StepPlan, index: number, next: string): StateConfig {
  const state = runState(plan, step, index, next);
  return step.requires && !step.fails && !step.call ? withRequires(state, step, index) : state;
}

/**
 * A step that depends on steps of other workflows (Arazzo 1.1) checks them first, in a `requires`
 * sub-state: one that has not succeeded in the run fails the workflow before the step runs.
 */
function withRequires(state: StateConfig, step: StepPlan, index: number): StateConfig {
  const requires = step.requires!;
  const reason = `it depends on ${requires.map((r) => r.label).join(', ')}, which ${requires.length === 1 ? 'has' : 'have'} not succeeded in this run; dependsOn does not run another workflow's steps: make that workflow run first (a workflow dependsOn)`;
  const check: StateConfig = {
    always: [
      { guard: { type: 'requiresMissing', params: { keys: requires.map((r) => r.key) } }, target: FAILED, actions: failAction(step, 'STEP_DEPENDENCY_NOT_MET', reason) },
      { target: stepTarget(index, step.stepId, SUB_STATE.calling) },
    ],
  };
  if (state.states) return { ...state, initial: SUB_STATE.requires, states: { [SUB_STATE.requires]: check, ...state.states } };
  // An atomic step: its entry's run moves into `calling`, its done transitions stay on the step.
  const entry = state.entry as ActionRef[];
  return { meta: state.meta, entry: entry[0]!, initial: SUB_STATE.requires, on: state.on, states: { [SUB_STATE.requires]: check, [SUB_STATE.calling]: { entry: entry.slice(1) } } } as StateConfig;
}

function runState(plan: WorkflowPlan, step: StepPlan, index: number, next: string): StateConfig {
  // One object is the state's meta and the params of its enterStep and startRun (a long chart kept three per step).
  const meta = { stepId: step.stepId, index };
  const enter: ActionRef = { type: 'enterStep', params: meta };
  if (step.fails) {
    // The planner decided this step cannot run: it fails when reached (after the budget check), so none of its chains can apply.
    return {
      meta,
      entry: enter,
      always: [
        { guard: 'budgetSpent', target: FAILED, actions: failAction(step, 'STEP_BUDGET_EXHAUSTED') },
        { target: FAILED, actions: ['countRun', failAction(step, step.fails.code, step.fails.reason)] },
      ],
    };
  }
  if (step.call) return callState(plan, step, index, next);
  // `startRun` reads the budget before `countRun` spends from it.
  const run: ActionRef[] = [{ type: 'startRun', params: meta }, 'countRun'];
  const done = { [RUN_STEP_DONE]: doneTransitions(plan, step, index, next) };
  if (!canRetry(step)) return { meta, entry: [enter, run[0]!, run[1]!], on: done };
  // A retry waits in `backoff`, then enters `calling` again: the step's own entry (which resets
  // the retry counter) runs only when the step is entered from elsewhere.
  return {
    meta,
    entry: enter,
    initial: SUB_STATE.calling,
    states: {
      [SUB_STATE.calling]: { entry: run, on: done },
      [SUB_STATE.backoff]: { after: { retryDelay: { target: stepTarget(index, step.stepId, SUB_STATE.calling) } } },
      ...retrySubStates(plan, step, index),
    },
  };
}

/**
 * A nested workflow step: the call's sub-states (call-states.ts), whose judged outcome takes
 * the step's ordinary done transitions, chains included; and the retry sub-states.
 */
function callState(plan: WorkflowPlan, step: StepPlan, index: number, next: string): StateConfig {
  const stepId = step.stepId;
  const states: Record<string, StateConfig> = { ...callSubStates(step, index, `#workflow.${stepKey(index, stepId)}`), ...retrySubStates(plan, step, index) };
  if (canRetry(step)) states[SUB_STATE.backoff] = { after: { retryDelay: { target: stepTarget(index, stepId, SUB_STATE.calling) } } };
  const meta = { stepId, index };
  return {
    meta,
    entry: { type: 'enterStep', params: meta },
    initial: SUB_STATE.calling,
    on: { [RUN_STEP_DONE]: doneTransitions(plan, step, index, next) },
    states,
  };
}

/**
 * The transitions of a step's `runStep.done` event, first match wins: the success actions; success
 * (or a dry run) goes on; the failure actions; the failure stops the workflow. Every one records
 * the step. (A run the step budget did not allow is the root's `runStep.budgetSpent`.)
 */
function doneTransitions(plan: WorkflowPlan, step: StepPlan, index: number, next: string): TransitionConfig[] {
  const record = recordAction(step);
  const transitions: TransitionConfig[] = [];
  for (const action of step.onSuccess) transitions.push(...successTransitions(plan, step, action));
  // "No success action applies": on to the next step. A dry run shows every step once, so it goes
  // on here too, without any action (success actions need a step that succeeded).
  transitions.push({ guard: 'stepSucceeded', target: next, reenter: true, actions: record });
  for (const action of step.onFailure) transitions.push(...failureTransitions(plan, step, index, action));
  // No later action applies, so a retry whose criteria hold has reached its limit.
  if (plan.retryLimitContinuesChain) for (const action of step.onFailure) if (action.type === 'retry' && !action.fails) transitions.push(limitReachedTransition(step, action));
  // "No failure action applies" (or there is no failure chain): the step's failure stops the workflow.
  transitions.push({ target: FAILED, actions: [record, failAction(step, 'STEP_FAILED')] });
  // A copy of its own length: the chart keeps it for the whole run, and a list built by `push` keeps room for 17.
  return transitions.slice();
}
