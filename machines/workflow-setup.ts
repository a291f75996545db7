import { assign, sendTo, setup } from 'xstate';
import { retryDelaySeconds } from './retry-delay.js';
import { RUN_STEP_DONE, RUN_STEP_ERROR, stepRunnerActor, type RunEvent, type RunStepEvent, type StepRunner } from './step-runner.js';
import type { ActionMeta, FailureCode, Judge, RunFailure, StepMeta, StepOutcome, StepRecord, WorkflowContext, WorkflowInput } from './types.js';

/** Parameters of the `fail` action: the failure as data. Without `reason`, the step outcome's reason is used. */
export interface FailParams {
  code: FailureCode;
  stepId: string;
  action?: string;
  retryLimit?: number;
  reason?: string;
}

/** The step-level guards, actions, actor and delay every compiled workflow uses, by name; `runStep` is supplied by the caller. */
export function workflowSetup(judge: Judge, runStep: StepRunner | undefined) {
  return setup({
    types: {} as { context: WorkflowContext; input: WorkflowInput; events: RunStepEvent; meta: StepMeta; transitionMeta: ActionMeta },
    actors: {
      runStep: stepRunnerActor(runStep ?? missingRunner),
    },
    guards: {
      budgetSpent: ({ context }) => context.runs >= context.maxSteps,
      // Judged on the `runStep.done` transition itself, before `storeOutcome` has run.
      wasDryRun: ({ event }) => outcomeOf(event)?.dryRun === true,
      stepSucceeded: ({ event }) => outcomeOf(event)?.ok === true,
      criteriaHold: ({ context }, params: { criteriaId?: number }) =>
        params.criteriaId === undefined || judge.criteriaHold(params.criteriaId, context),
      criteriaBroken: ({ context }, params: { criteriaId: number }) => judge.criteriaError(params.criteriaId, context) !== undefined,
      retryAllowed: ({ context }, params: { criteriaId?: number; retryLimit: number }) =>
        context.retries < params.retryLimit &&
        (params.criteriaId === undefined || judge.criteriaHold(params.criteriaId, context)),
    },
    actions: {
      enterStep: assign((_, params: { index: number }) => ({ current: params.index, retries: 0 })),
      countRun: assign({ runs: ({ context }) => context.runs + 1 }),
      startRun: sendTo('runStep', ({ context }, params: { index: number; stepId: string }): RunEvent => ({
        type: 'run',
        input: { stepIndex: params.index, stepId: params.stepId, inputs: context.inputs, steps: context.steps },
      })),
      storeOutcome: assign({ last: ({ event }) => outcomeOf(event) }),
      storeCrash: assign({
        last: ({ event }): StepOutcome => ({
          statusCode: 0,
          ok: false,
          dryRun: false,
          outputs: {},
          reason: errorMessage(event.type === RUN_STEP_ERROR ? event.error : undefined),
          crashed: true,
        }),
      }),
      recordStep: assign(({ context }, params: { stepId: string; failedVia?: StepRecord['failedVia'] }) => {
        const last = context.last;
        const ok = last?.ok === true || last?.dryRun === true;
        const record: StepRecord = {
          stepId: params.stepId,
          status: last?.statusCode ?? 0,
          dryRun: last?.dryRun === true,
          outputs: ok ? (last?.outputs ?? {}) : {},
        };
        if (params.failedVia) record.failedVia = params.failedVia;
        // Appended in place: copying the list and the map on every step made a run O(n²) in its
        // step runs (3000 steps: 0.8-1.2 ms per step instead of 0.25). Safe because the context
        // factory creates both afresh for each actor, and nothing reads an older snapshot's
        // records later (inspection and trace observers read them synchronously, as they happen).
        context.records.push(record);
        // `steps` has no prototype (see the context factory), so a stepId of "__proto__" is an own key.
        const data = last?.keepData === false ? undefined : (last?.data as object | undefined);
        context.steps[params.stepId] = { ...data, outputs: record.outputs };
        return { records: context.records, steps: context.steps };
      }),
      scheduleRetry: assign(({ context }, params: { retryAfterSeconds: number }) => ({
        retries: context.retries + 1,
        retryDelayMs: retryDelaySeconds(params.retryAfterSeconds, context.last?.retryAfterHeaderSeconds) * 1000,
      })),
      fail: assign(({ context }, params: FailParams) => ({ failure: failureOf(params, context.last) })),
      failOnCriteria: assign(({ context }, params: { stepId: string; criteriaId: number; action: string }) => {
        const failure: RunFailure = { code: 'STEP_FAILED', stepId: params.stepId, action: params.action };
        const reason = judge.criteriaError(params.criteriaId, context);
        if (reason !== undefined) failure.reason = reason;
        return { failure };
      }),
      computeOutputs: assign(({ context }) => ({ outputs: judge.workflowOutputs(context) })),
    },
    delays: {
      retryDelay: ({ context }) => context.retryDelayMs,
    },
  });
}

async function missingRunner(): Promise<StepOutcome> {
  throw new Error('the step runner must be given to compileWorkflow');
}

/** The step outcome a `runStep.done` event carries. */
function outcomeOf(event: RunStepEvent): StepOutcome | undefined {
  return event.type === RUN_STEP_DONE ? event.output : undefined;
}

/** The failure `fail` records: its parameters, and the outcome's reason when the step's outcome is the cause. */
function failureOf(params: FailParams, last: StepOutcome | undefined): RunFailure {
  const failure: RunFailure = { code: params.code, stepId: params.stepId };
  if (params.action !== undefined) failure.action = params.action;
  if (params.retryLimit !== undefined) failure.retryLimit = params.retryLimit;
  if (params.reason !== undefined) failure.reason = params.reason;
  // The budget runs out on entering a step, before it runs: the last outcome is another run's.
  else if (params.code !== 'STEP_BUDGET_EXHAUSTED' && last?.reason !== undefined) {
    failure.reason = last.reason;
    if (last.crashed) failure.crashed = true;
  }
  return failure;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type WorkflowSetup = ReturnType<typeof workflowSetup>;
/** The config this setup's `createMachine` takes: guard, action, actor and delay names and their params are checked. */
export type WorkflowConfig = Parameters<WorkflowSetup['createMachine']>[0];
export type StateConfig = NonNullable<WorkflowConfig['states']>[string];
/** One transition of a state's `always`, `on` or `after`. */
export type TransitionConfig = Exclude<NonNullable<StateConfig['always']>, string | readonly unknown[]>;
/** One entry of a transition's `actions`: a name or `{ type, params }`. */
export type ActionRef = Exclude<NonNullable<TransitionConfig['actions']>, readonly unknown[]>;
