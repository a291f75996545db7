import { assign, sendTo, setup } from 'xstate';
import { retryDelaySeconds } from './retry-delay.js';
import { RUN_STEP_DONE, stepRunnerActor, type BudgetSpentEvent, type RunEvent, type RunStepEvent, type StepRunner } from './step-runner.js';
import type { ActionMeta, CallState, FailureCode, Judge, RunFailure, StepMeta, StepOutcome, StepRecord, WorkflowContext, WorkflowInput, WorkflowResult } from './types.js';

/** The event a workflow machine invoked by a nested step (or a retry) sends its parent when it ends. */
export interface CallDoneEvent {
  type: `xstate.done.actor.${string}`;
  output: WorkflowResult;
}

/** Failures inside a nested call that stop the whole run, whatever the caller's chains say. */
const FATAL: ReadonlySet<RunFailure['code']> = new Set<FailureCode>(['STEP_BUDGET_EXHAUSTED', 'DEPTH_EXCEEDED']);

/** Whether a failure inside a nested call (or a dependency it ran) stops the whole run: a budget spent, a depth passed. */
export function isFatal(failure: RunFailure | undefined): boolean {
  return failure !== undefined && FATAL.has(failure.code);
}

/** Parameters of the `fail` action: the failure as data. Without `reason`, the step outcome's reason is used. */
export interface FailParams {
  code: RunFailure['code'];
  stepId: string;
  action?: string;
  retryLimit?: number;
  reason?: string;
}

/** Per-action retry counts of a step visit that has used none (shared: a thousand-step run enters a step a thousand times). */
export const NO_RETRIES: readonly number[] = Object.freeze([]);

/** Parameters of `retryAllowed`: the action's criteria and limit, and with per-action counting (WorkflowPlan.retriesPerAction) its place in the failure chain. */
export interface RetryParams {
  criteriaId?: number;
  retryLimit: number;
  counter?: number;
}

/** Parameters of the criteria guards: the action's criteria set, and `whenSucceeded` on a success action (the step must have succeeded too). */
export interface CriteriaParams {
  criteriaId?: number;
  whenSucceeded?: true;
}

/**
 * The step-level guards, actions, actor and delay every compiled workflow uses, by name; `runStep`
 * is supplied by the caller.
 *
 * The actions change the context only through `assign`: each returns the fields it changes, and
 * XState makes the next context from them, so every snapshot keeps the values of its own
 * transition. Two fields are append-only logs rather than values copied on every step: `records`
 * and `steps` (the run record, and `$steps`) gain their new entry in `recordStep`'s assignment,
 * and no entry already there changes (`recordCallSteps` completes the newest one through a new
 * array). Copying them on every step would make a run quadratic: 0.6 s of copying at 1000 steps,
 * 23 s at 5000. `context.run` is the run's shared budget and `$workflows` (one object for every
 * machine of a run with nested workflows, by design); `countRun` and `storeCallResult` count and record into it.
 * test/machines/context-snapshots.test.ts checks that every snapshot observers receive holds the
 * values of its own transition.
 */
export function workflowSetup(judge: Judge, runStep: StepRunner | undefined, calls?: Record<string, unknown>) {
  // Nested calls invoke other workflows' machines by key: `calls` is filled with them once
  // every workflow of the run is compiled (they may call each other), and XState looks actors up
  // by name when it invokes them, so each machine's actors inherit from the one shared object.
  const actors = Object.create(calls ?? null) as { runStep: ReturnType<typeof stepRunnerActor> };
  actors.runStep = stepRunnerActor(runStep ?? missingRunner);
  return setup({
    types: {} as { context: WorkflowContext; input: WorkflowInput; events: RunStepEvent | BudgetSpentEvent | CallDoneEvent; meta: StepMeta; transitionMeta: ActionMeta },
    actors,
    guards: {
      // On entering a step with a planned failure, which sends no run event. (A run event that finds the
      // budget spent is answered with `runStep.budgetSpent`, which the root handles: `failBudget`.)
      budgetSpent: ({ context }) => context.run.runs >= context.run.maxSteps,
      /** A nested step's call inputs are ready. */
      callReady: ({ event }) => outcomeOf(event)?.call !== undefined,
      /** A nested call from here would be deeper than the run allows. */
      depthExceeded: ({ context }) => context.depth + 1 > context.run.maxDepth,
      /** Arazzo 1.1: some step of another workflow this step depends on has not succeeded in the run. */
      requiresMissing: ({ context }, params: { keys: string[] }) => params.keys.some((key) => context.run.stepsDone?.[key] !== true),
      /** The called workflow ended by a transfer to workflow `to`. */
      transferredTo: ({ event }, params: { to: string }) => resultOf(event)?.transfer?.to === params.to,
      /** The called workflow stopped for a reason that stops the run (budget, depth). */
      callFatal: ({ event }) => isFatal(resultOf(event)?.failure),
      callFailed: ({ event }) => resultOf(event)?.status !== 'succeeded',
      // Judged on the `runStep.done` transitions themselves, before `recordStep` stores the outcome.
      // A dry run goes on too: it shows every step once, and no action applies to it (the success
      // actions need a step that succeeded, and this transition comes before the failure actions).
      stepSucceeded: ({ event }) => {
        const outcome = outcomeOf(event);
        return outcome?.ok === true || outcome?.dryRun === true;
      },
      criteriaHold: ({ context, event }, params: CriteriaParams) => {
        const outcome = outcomeOf(event);
        if (params.whenSucceeded && !succeeded(outcome)) return false;
        return params.criteriaId === undefined || judge.criteriaHold(params.criteriaId, context, outcome);
      },
      criteriaBroken: ({ context, event }, params: { criteriaId: number; whenSucceeded?: true }) => {
        const outcome = outcomeOf(event);
        if (params.whenSucceeded && !succeeded(outcome)) return false;
        return judge.criteriaError(params.criteriaId, context, outcome) !== undefined;
      },
      retryAllowed: ({ context, event }, params: RetryParams) =>
        (params.counter === undefined ? context.retries : (context.actionRetries[params.counter] ?? 0)) < params.retryLimit &&
        (params.criteriaId === undefined || judge.criteriaHold(params.criteriaId, context, outcomeOf(event))),
    },
    actions: {
      /** Entering a step (not by its own retry): it is the current one, with no retries used. */
      // A nested call belongs to the step that made it: the next step's record must not show it.
      enterStep: assign((_, params: { index: number }) => ({ current: params.index, retries: 0, actionRetries: NO_RETRIES, call: undefined })),
      /**
       * Spends one run of the budget, unless it is spent. After `startRun`, which read the same
       * count to tell the runner whether the budget was spent (a step with a planned failure counts too).
       */
      countRun: assign(({ context }) => {
        if (context.run.runs >= context.run.maxSteps) return {};
        // The run's budget is shared by every machine of the run (see above).
        context.run.runs += 1;
        return { runs: context.runs + 1 };
      }),
      /**
       * Sends the `runStep` actor a `run` event for this step; when the budget is spent, the event
       * says so and nothing runs. A nested step's `judge` phase judges the call that ran and spends nothing.
       */
      startRun: sendTo('runStep', ({ context }, params: { index: number; stepId: string; phase?: 'call' | 'judge' | 'launch' }): RunEvent => {
        const input: RunEvent['input'] = { stepIndex: params.index, stepId: params.stepId, inputs: context.inputs, steps: context.steps, via: context.via, workflows: context.run.workflows, stack: context.stack };
        const event: RunEvent = { type: 'run', input };
        if (params.phase !== undefined) input.phase = params.phase;
        if (params.phase === 'judge') input.result = context.call?.result;
        else if (context.run.runs >= context.run.maxSteps) event.budgetSpent = true;
        return event;
      }),
      /** A nested step's call passed the step's timeout (Arazzo 1.1): the call ends as a failed one, which the step is judged on. */
      timeOutCall: assign(({ context }, params: { key: string; timeoutMs: number }) => {
        const call = context.call ?? { inputs: {}, records: [], transfers: [], dependencies: [] };
        const reason = `the step's timeout of ${params.timeoutMs} ms passed before the call ended; it was stopped`;
        const result: WorkflowResult = { workflowId: params.key, key: params.key, status: 'failed', inputs: call.inputs, outputs: {}, records: [], failure: { code: 'CALL_TIMEOUT', reason } };
        return { call: { ...call, result } };
      }),
      /** A nested step's call starts (again): with the inputs the runner evaluated, and nothing run yet. */
      startCall: assign(({ event }, params: { timeoutMs?: number } | undefined) => {
        const call: CallState = { inputs: outcomeOf(event)?.call?.inputs ?? {}, records: [], transfers: [], dependencies: [] };
        // The step's timeout covers the whole call, the workflows a transfer inside it moves to included.
        if (params?.timeoutMs !== undefined) call.deadline = performance.now() + params.timeoutMs;
        return { call };
      }),
      /**
       * A workflow the call ran has ended: its records (and the dependencies it ran first) join the
       * call's, a transfer is noted, its inputs and outputs become `$workflows.<id>`, and a success
       * marks it completed in the run.
       */
      storeCallResult: assign(({ context, event }) => {
        const result = resultOf(event);
        const call = context.call;
        if (!result || !call) return {};
        // `$workflows` and the completed workflows are the run's, shared by its machines (see above).
        context.run.workflows[result.key] = { inputs: result.inputs, outputs: result.outputs };
        if (result.status === 'succeeded') context.run.completed[result.key] = true;
        const transfers = result.transfer ? [...call.transfers, { from: result.workflowId, stepId: result.transfer.stepId, to: result.transfer.to }] : call.transfers;
        const dependencies = result.dependencies ? [...call.dependencies, ...result.dependencies] : call.dependencies;
        return {
          // A transfer inside the call runs its target with the call's inputs, and the action's parameters over them (Arazzo 1.1).
          call: { ...call, ...(result.transfer?.inputs ? { inputs: { ...call.inputs, ...result.transfer.inputs } } : {}), records: [...call.records, ...result.records], transfers, dependencies, result },
          // A fatal failure ends this workflow too, and the step's record needs an outcome to show.
          last: { statusCode: 0, ok: false, dryRun: false, outputs: {} },
        };
      }),
      /** A nested call from step `stepId` would pass the depth limit. */
      failDepth: assign(({ context }, params: { stepId: string }) => ({ failure: { code: 'DEPTH_EXCEEDED', stepId: params.stepId, depth: context.depth + 1, maxDepth: context.run.maxDepth } })),
      /** The workflow a retry action ran before retrying failed: the step's workflow fails with it. */
      failCall: assign(({ context }, params: { stepId: string; action: string; workflow: string }) => {
        const failure: RunFailure = { code: 'CALL_FAILED', stepId: params.stepId, action: params.action, workflow: params.workflow };
        const cause = context.call?.result?.failure;
        if (cause) failure.cause = cause;
        const transfer = context.call?.result?.transfer;
        if (transfer) failure.transferTo = transfer.to;
        return { failure };
      }),
      /** A retry action's workflow starts: with the current workflow's inputs. */
      startRetryCall: assign(({ context }, params: { inputsId?: number } | undefined) => ({
        call: { inputs: params?.inputsId === undefined ? context.inputs : { ...context.inputs, ...judge.actionInputs(params.inputsId, context) }, records: [], transfers: [], dependencies: [] },
      })),
      /** The step records of a retry action's workflow go under the record of the attempt that retried (each carries its own workflowId). */
      recordCallSteps: assign(({ context }) => {
        const attempt = context.records[context.records.length - 1];
        if (!context.call || !attempt) return {};
        const completed: StepRecord = { ...attempt, steps: context.call.records };
        if (context.call.transfers.length > 0) completed.transfers = context.call.transfers;
        if (context.call.dependencies.length > 0) completed.dependencies = context.call.dependencies;
        return { records: [...context.records.slice(0, -1), completed] };
      }),
      /** A call that starts again keeps nothing of the last one. */
      forgetCall: assign({ call: undefined }),
      /** The called workflow stopped the run: this workflow stops with the same failure, through this step. */
      failFromCall: assign(({ context }, params: { stepId: string }) => {
        const failure = context.call?.result?.failure;
        return failure ? { failure: { ...failure, via: [params.stepId, ...(failure.via ?? [])] } } : {};
      }),
      /** The workflow ends by a goto to another workflow: the run starts that one next. */
      transferTo: assign(({ context, event }, params: { to: string; stepId: string; inputsId?: number }) => ({
        transfer: params.inputsId === undefined ? { to: params.to, stepId: params.stepId } : { to: params.to, stepId: params.stepId, inputs: judge.actionInputs(params.inputsId, context, outcomeOf(event)) },
      })),
      /**
       * Stores the step's outcome (from the `runStep.done` event) in `last`, appends the step to
       * the run record and makes its outputs (and, when read later, its request and response)
       * visible to later steps as `steps.<stepId>`.
       */
      recordStep: assign(({ context, event }, params: { stepId: string; failedVia?: StepRecord['failedVia']; call?: true }) => {
        const last = outcomeOf(event) ?? context.last;
        const ok = last?.ok === true || last?.dryRun === true;
        const record: StepRecord = {
          stepId: params.stepId,
          status: last?.statusCode ?? 0,
          dryRun: last?.dryRun === true,
          outputs: ok ? (last?.outputs ?? {}) : {},
        };
        if (params.failedVia) record.failedVia = params.failedVia;
        if (context.recordsWorkflowId) record.workflowId = context.workflowId;
        if (params.call && context.call) {
          record.steps = context.call.records;
          if (context.call.transfers.length > 0) record.transfers = context.call.transfers;
          if (context.call.dependencies.length > 0) record.dependencies = context.call.dependencies;
        }
        // The append-only logs gain their new entry (see above).
        context.records.push(record);
        // The run's completed steps, shared by its machines as `workflows` is: step dependsOn across workflows reads them.
        if (ok) (context.run.stepsDone ??= Object.create(null) as Record<string, true>)[`${context.key}/${params.stepId}`] = true;
        // `steps` has no prototype (see the context factory), so a stepId of "__proto__" is an own key.
        const data = last?.keepData === false ? undefined : (last?.data as object | undefined);
        // Object.assign, not a spread: on Node 20's V8 the spread made a new hidden class per step.
        context.steps[params.stepId] = data === undefined ? { outputs: record.outputs } : Object.assign({}, data, { outputs: record.outputs });
        return { last, records: context.records, steps: context.steps };
      }),
      /** A retry fires: one more retry used (the step's, or with `counter` the action's own), and the wait before it. */
      scheduleRetry: assign(({ context }, params: { retryAfterSeconds: number; counter?: number }) => {
        const retryDelayMs = retryDelaySeconds(params.retryAfterSeconds, context.last?.retryAfterHeaderSeconds) * 1000;
        if (params.counter === undefined) return { retries: context.retries + 1, retryDelayMs };
        const actionRetries = [...context.actionRetries];
        const used = (actionRetries[params.counter] ?? 0) + 1;
        actionRetries[params.counter] = used;
        return { retries: used, actionRetries, retryDelayMs };
      }),
      fail: assign(({ context }, params: FailParams) => ({ failure: failureOf(params, context.last) })),
      /** A run event found the step budget spent (the root's `runStep.budgetSpent` transition): nothing ran. */
      failBudget: assign(({ event }) => ({ failure: { code: 'STEP_BUDGET_EXHAUSTED', stepId: (event as BudgetSpentEvent).stepId } })),
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
      /** What is left of a nested step's timeout (Arazzo 1.1) when a workflow of its call starts. */
      callTimeLeft: ({ context }) => Math.max(0, (context.call?.deadline ?? Infinity) - performance.now()),
    },
  });
}

async function missingRunner(): Promise<StepOutcome> {
  throw new Error('the step runner must be given to compileWorkflow');
}

/** The step outcome a `runStep.done` event carries (undefined for the other events: init, a retry's delay). */
function outcomeOf(event: RunStepEvent | { type: string }): StepOutcome | undefined {
  return event.type === RUN_STEP_DONE ? (event as RunStepEvent).output : undefined;
}

/** Whether a run succeeded (a dry run did not: it sent nothing). */
function succeeded(outcome: StepOutcome | undefined): boolean {
  return outcome?.ok === true && outcome.dryRun !== true;
}

/** The result a called workflow's done event carries. */
function resultOf(event: { type: string }): WorkflowResult | undefined {
  return event.type.startsWith('xstate.done.actor.') ? (event as CallDoneEvent).output : undefined;
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

type WorkflowSetup = ReturnType<typeof workflowSetup>;
/** The config this setup's `createMachine` takes: guard, action, actor and delay names and their params are checked. */
export type WorkflowConfig = Parameters<WorkflowSetup['createMachine']>[0];
export type StateConfig = NonNullable<WorkflowConfig['states']>[string];
/** One transition of a state's `always`, `on` or `after`. */
export type TransitionConfig = Exclude<NonNullable<StateConfig['always']>, string | readonly unknown[]>;
/** One entry of a transition's `actions`: a name or `{ type, params }`. */
export type ActionRef = Exclude<NonNullable<TransitionConfig['actions']>, readonly unknown[]>;
