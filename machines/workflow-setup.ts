import { assign, sendTo, setup } from 'xstate';
import { retryDelaySeconds } from './retry-delay.js';
import { RUN_STEP_DONE, RUN_STEP_ERROR, stepRunnerActor, type RunEvent, type RunStepEvent, type StepRunner } from './step-runner.js';
import type { FailureCode, Judge, StepOutcome, StepRecord, WorkflowContext, WorkflowInput } from './types.js';

/** Parameters of the `fail` action. `message` is used as is; `template` wraps the step's reason. */
export interface FailParams {
  code: FailureCode;
  stepId?: string;
  message?: string;
  /** `{reason}` is replaced by the outcome's reason. */
  template?: string;
}

/** The step-level guards, actions, actor and delay every compiled workflow uses, by name; `runStep` is supplied by the caller. */
export function workflowSetup(judge: Judge, runStep: StepRunner | undefined) {
  return setup({
    types: {} as { context: WorkflowContext; input: WorkflowInput; events: RunStepEvent },
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
        last: ({ event }) => ({
          statusCode: 0,
          ok: false,
          dryRun: false,
          outputs: {},
          reason: `internal error: ${errorMessage(event.type === RUN_STEP_ERROR ? event.error : undefined)}`,
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
      fail: assign(({ context }, params: FailParams) => {
        const reason = context.last?.reason ?? 'the step failed';
        const message = params.message ?? (params.template ?? '{reason}').replace('{reason}', reason);
        return { failure: { code: params.code, stepId: params.stepId, message } };
      }),
      failOnCriteria: assign(({ context }, params: { stepId: string; criteriaId: number; action: string }) => ({
        failure: {
          code: 'STEP_FAILED' as const,
          stepId: params.stepId,
          message: `criteria of action "${params.action}": ${judge.criteriaError(params.criteriaId, context) ?? 'cannot be evaluated'}`,
        },
      })),
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

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
