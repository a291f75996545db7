/**
 * The sub-states that make a nested workflow call, shared by a nested step's own state and
 * by a retry action that runs a nested step before retrying. `calling` asks the runner for the
 * call's inputs (one run of the budget); `invoking` runs the called workflow as a child machine;
 * `judging` asks the runner to judge the finished call. Their parent handles the `runStep.done`
 * events they do not: the judged outcome, and a call whose inputs could not be made.
 */
import { and } from 'xstate';
import { FAILED, SUB_STATE, subKey } from './state-keys.js';
import { RUN_STEP_DONE } from './step-runner.js';
import type { StepPlan, WorkflowContext } from './types.js';
import type { ActionRef, StateConfig, TransitionConfig } from './workflow-setup.js';

const CALL_PREFIX = 'workflow:';

/** The actor name a workflow's machine is invoked by, in the run's `calls` (also the child's id). */
export function callActorName(key: string): string {
  return `${CALL_PREFIX}${key}`;
}

/** The workflow key of a call's actor name or child id (`workflow:login` → `login`). */
export function calledKey(name: string): string {
  return name.startsWith(CALL_PREFIX) ? name.slice(CALL_PREFIX.length) : name;
}

/** The `recordStep` action of a nested step. */
function recordCall(step: StepPlan): ActionRef {
  return { type: 'recordStep', params: { stepId: step.stepId, call: true } };
}

/**
 * The input of a called workflow's machine: the call's inputs, the run's shared state, one more
 * level of depth, and the path of calls (`step` is the nested step that calls).
 */
export function callInput(stepId: string, key: string, inputs: (context: WorkflowContext) => Record<string, unknown>) {
  return ({ context }: { context: WorkflowContext }) => ({
    inputs: inputs(context),
    maxSteps: context.run.maxSteps,
    run: context.run,
    depth: context.depth + 1,
    via: [...context.via, stepId],
    actor: `${context.actor}/${stepId}/${key}`,
    stack: context.stack,
  });
}

/**
 * `calling`, `invoking` (and `invoking_<n>` for each workflow a transfer inside the call can move
 * it to: the old child stops, so the actor tree does not grow) and `judging` for nested step
 * `step` (index `index`), as children of the state at `base` (an absolute path such as
 * `#workflow.s1_callChild`). A call that stops the run (budget, depth) stops this workflow at once.
 */
export function callSubStates(step: StepPlan, index: number, base: string): Record<string, StateConfig> {
  const call = step.call!;
  const stepId = step.stepId;
  const workflows = [call.workflow, ...call.transfers.filter((key) => key !== call.workflow)];
  const states: Record<string, StateConfig> = {
    [SUB_STATE.calling]: {
      // A call made again (a retry) starts with nothing of the last one.
      entry: ['forgetCall', { type: 'startRun', params: { index, stepId, phase: 'call' } }, 'countRun'],
      on: {
        // Anything else (the inputs could not be evaluated) goes to the parent's transitions.
        [RUN_STEP_DONE]: [
          { guard: and(['callReady', 'depthExceeded']), target: FAILED, actions: [recordCall(step), { type: 'failDepth', params: { stepId } }] },
          { guard: 'callReady', target: `${base}.${SUB_STATE.invoking}`, actions: call.timeoutMs === undefined ? 'startCall' : { type: 'startCall', params: { timeoutMs: call.timeoutMs } } },
        ],
      },
    },
    [SUB_STATE.judging]: { entry: { type: 'startRun', params: { index, stepId, phase: 'judge' } } },
  };
  workflows.forEach((key, n) => {
    const onDone: TransitionConfig[] = [
      { guard: 'callFatal', target: FAILED, actions: ['storeCallResult', recordCall(step), { type: 'failFromCall', params: { stepId } }] },
      ...workflows.map((to, m) => ({ guard: { type: 'transferredTo' as const, params: { to } }, target: `${base}.${subKey(SUB_STATE.invoking, m)}`, reenter: true, actions: 'storeCallResult' as const })),
      { target: `${base}.${SUB_STATE.judging}`, actions: 'storeCallResult' },
    ];
    states[subKey(SUB_STATE.invoking, n)] = {
      // The child's id is prefixed: a workflow named `runStep` must not replace the step runner among the children.
      invoke: { src: callActorName(key) as 'runStep', id: callActorName(key), input: callInput(stepId, key, (context) => context.call?.inputs ?? {}), onDone } as unknown as StateConfig['invoke'],
      // Arazzo 1.1 step timeout: leaving the state stops the call (its request in flight is aborted); the step is judged as a call that failed.
      ...(call.timeoutMs === undefined ? {} : { after: { callTimeLeft: { target: `${base}.${SUB_STATE.judging}`, actions: { type: 'timeOutCall', params: { key, timeoutMs: call.timeoutMs } } } } }),
    };
  });
  return states;
}
