/**
 * The compiled form of one workflow that the statechart is built from, and the machine's context.
 * Everything here is plain data: src/run builds the plan from the Arazzo model (presence rules
 * applied, `$components` references resolved, criteria parsed) and supplies the effects.
 */

/**
 * A failure the planner decides before the run, as RunFailure's `code` and `reason`: a step or an
 * action the run cannot carry out fails with it when reached (src/run words the code).
 */
export interface PlannedFailure {
  code: string;
  reason: string;
}

/** One action of a success or failure chain, after reference resolution. */
export interface ActionPlan {
  name: string;
  type: 'end' | 'goto' | 'retry';
  /** Id of the action's criteria set for the judge; undefined means the action always fires. */
  criteriaId?: number;
  /** Arazzo 1.1 action `parameters` for its `workflowId` target: the judge's actionInputs set (inputs over the run's of the same name). */
  inputsId?: number;
  /** Index of the goto target step; for a retry with `stepId`, the step run once before the retry. */
  targetIndex?: number;
  /** A goto to a workflow (a transfer) or a retry with `workflowId`: the workflow's key, as in WorkflowPlan.key. */
  workflow?: string;
  retryAfterSeconds: number;
  retryLimit: number;
  /** Dispatching this action fails the workflow with this failure instead (the planner decided the run cannot carry it out). */
  fails?: PlannedFailure;
  /** The criteria hold an ordering comparison, whose evaluation can fail (then the step fails). */
  criteriaCanFail?: boolean;
  /** The action's criteria as written in the document (each condition), for the steps-level graph; absent when it has none. */
  criteriaText?: string[];
  /** Label for graphs and traces, made by src/run, e.g. `onFailure: busy (retry x3 after 2s) [$statusCode == 503]`: the transitions' `description`. */
  label: string;
}

/**
 * What taking an action's transition does: the action fires, or the workflow stops instead because
 * its retry limit is reached, its criteria cannot be evaluated, or it fails with its planned
 * failure (ActionPlan.fails; the transition's `fail` action carries the code).
 */
export type ActionOutcome = 'fired' | 'limitReached' | 'criteriaBroken' | 'failed';

/** The `meta` of every transition an Arazzo action compiles to; traces and graphs read it. */
export interface ActionMeta {
  /** The action's name. */
  action: string;
  actionType: ActionPlan['type'];
  outcome: ActionOutcome;
  /** The action's criteria as written (ActionPlan.criteriaText), which the steps-level graph shows; absent when it has none. */
  criteria?: string[];
}

/** The `meta` of a step's state. */
export interface StepMeta {
  stepId: string;
  index: number;
}

export interface StepPlan {
  stepId: string;
  /** Reaching this step fails the workflow with this failure, without running it; none of its chains apply. */
  fails?: PlannedFailure;
  /**
   * Arazzo 1.1: an asynchronous step (an AsyncAPI receive) that runs in flight: it is launched at
   * its place and the workflow goes on; its own state (where its outcome is judged and its chains
   * apply) comes before step `joinAt`, the first step that depends on it, or at the end
   * (`joinAt` = the number of steps). See compile-workflow.ts.
   */
  inFlight?: { joinAt: number };
  /**
   * Arazzo 1.1 step dependsOn on steps of other workflows: each must have completed (succeeded) in
   * the run before this step runs (`key`: `<workflow key>/<stepId>`); dependsOn does not run them,
   * so the step fails when one has not (`label` names it).
   */
  requires?: Array<{ key: string; label: string }>;
  /** The chains in force for this step, presence rules applied (step chain, workflow chain, or none). */
  onSuccess: ActionPlan[];
  onFailure: ActionPlan[];
  /** Where each chain came from, for graphs: 'step' | 'workflow' | 'none' (explicit []). */
  onSuccessFrom: ChainSource;
  onFailureFrom: ChainSource;
  /**
   * A nested workflow step: the key of the workflow it calls, and the keys of the workflows
   * a goto inside that call can transfer to (transitively), each of which the step may end up running instead.
   */
  call?: { workflow: string; transfers: string[]; timeoutMs?: number };
}

/** Where a step's chain came from; `merged`: the step's actions, then the workflow's it does not name. */
export type ChainSource = 'step' | 'workflow' | 'merged' | 'none';

export interface WorkflowPlan {
  workflowId: string;
  /** The workflow's key among the run's workflows: its id, or `<source>.<id>` for one of an arazzo source. Defaults to workflowId. */
  key?: string;
  steps: StepPlan[];
  /** Step records carry `workflowId`. */
  recordsWorkflowId?: true;
  /**
   * A retry whose limit is reached lets the chain go on with the next action whose criteria hold;
   * without it the workflow fails with RETRIES_EXHAUSTED at once.
   */
  retryLimitContinuesChain?: true;
  /**
   * Each retry action counts its own retries in the step's visit (by its place in the failure
   * chain) against its own retryLimit; without it one count for the step is held against every
   * retry action's limit.
   */
  retriesPerAction?: true;
  /**
   * The workflows the workflow's dependsOn names, in order, each with the workflows a goto inside it
   * can transfer to (transitively): a nested call of this workflow (or a transfer to it inside one)
   * runs those not yet completed in the run first (machines/depends-on.ts). A top-level run runs
   * them itself (src/run/run-workflows.ts).
   */
  dependsOn?: DependencyPlan[];
}

/** One workflow a workflow depends on: its key, and the keys of the workflows a goto inside it can transfer to. */
export interface DependencyPlan {
  workflow: string;
  transfers: string[];
}

/**
 * One workflow dependsOn ran, as the run record shows it: its id, the outputs of the workflow that
 * ended its run (itself, or the last one it transferred to; `{}` when it failed), the step records
 * of its run (flat, transfers included) and the transfers it made.
 */
export interface DependencyRecord {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: StepRecord[];
  transfers?: Transfer[];
}

/** What one run of a step body produced: the output of the `runStep.done` event. */
export interface StepOutcome {
  /** HTTP status; 0 when no HTTP response arrived (transport error, request not built, dry run). */
  statusCode: number;
  /** Whether the response satisfied every success criterion. */
  ok: boolean;
  dryRun: boolean;
  /** Evaluated step outputs (empty unless ok). */
  outputs: Record<string, unknown>;
  /** Why the step failed, one line. */
  reason?: string;
  /** The step body threw (a bug): `reason` is the error's message. */
  crashed?: true;
  /** Seconds from an HTTP Retry-After header on the response, when present. */
  retryAfterHeaderSeconds?: number;
  /** Expression data of this run (an object such as {request, response}) for later `$steps.<id>` references; opaque to the machine. */
  data?: Record<string, unknown>;
  /** False when no expression reads this step's `data` later: `$steps.<id>` then keeps only the outputs, and the run less memory. */
  keepData?: boolean;
  /** A nested step's call is ready: the called workflow's inputs, evaluated from the step's parameters. */
  call?: { inputs: Record<string, unknown> };
}

/** A goto from a step of one workflow to another workflow. */
export interface Transfer {
  from: string;
  stepId: string;
  to: string;
}

/** What a workflow machine ends with (its `output`): how it ended, its outputs and step records. */
export interface WorkflowResult {
  workflowId: string;
  key: string;
  status: 'succeeded' | 'failed' | 'transferred';
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  records: StepRecord[];
  failure?: RunFailure;
  /** The workflow ended with a goto to another workflow: its key, and the step that went. */
  transfer?: { to: string; stepId: string; inputs?: Record<string, unknown> };
  /** The dependencies a nested call of the workflow ran first (machines/depends-on.ts). */
  dependencies?: DependencyRecord[];
}

/** One entry of the run record's `steps`. */
export interface StepRecord {
  stepId: string;
  status: number;
  dryRun: boolean;
  outputs: Record<string, unknown>;
  failedVia?: 'on-failure-end' | 'on-failure-goto';
  /** The workflow the step belongs to (WorkflowPlan.recordsWorkflowId). */
  workflowId?: string;
  /** A nested step: the called workflow's own step records (and those of the workflows it transferred to). */
  steps?: StepRecord[];
  /** A nested step whose call transferred to other workflows. */
  transfers?: Transfer[];
  /** A nested step whose call ran dependencies first (the called workflow's dependsOn, and those of the workflows it transferred to). */
  dependencies?: DependencyRecord[];
}

/** The failures the engine itself decides; a planned failure (PlannedFailure) brings its own code. */
export type FailureCode = 'STEP_FAILED' | 'END_ACTION' | 'RETRIES_EXHAUSTED' | 'STEP_BUDGET_EXHAUSTED' | 'DEPTH_EXCEEDED' | 'CALL_FAILED' | 'DEPENDENCY_FAILED' | 'INTERNAL';

/**
 * Why a run failed, as data; src/run words it for people (failure-message.ts). Which fields are
 * set depends on `code`:
 * - `STEP_FAILED`: `reason` from the step's outcome; with `action`, that action's criteria could
 *   not be evaluated and `reason` says why.
 * - `END_ACTION`: `action` ended the workflow; `reason` from the step's outcome.
 * - `RETRIES_EXHAUSTED`: `action` reached `retryLimit`; `reason` from the last outcome.
 * - a planned failure's code (PlannedFailure): `reason` is the planner's.
 * - `STEP_BUDGET_EXHAUSTED`: nothing more.
 * - `DEPTH_EXCEEDED`: a nested call would pass `maxDepth` (`depth`: the call's depth).
 * - `CALL_FAILED`: the workflow a retry action runs (`action`, `workflow`) failed; `cause` says how.
 * - `DEPENDENCY_FAILED`: a dependency (`workflow`, its id) of a nested or transferred workflow
 *   failed, so that workflow did not run; `cause` says how.
 * A failure that happened inside a nested call and stops the whole run (budget, depth) carries
 * `via`: the nested step ids that led to it, outermost first.
 */
export interface RunFailure {
  code: FailureCode | PlannedFailure['code'];
  stepId?: string;
  /** The Arazzo action involved, by name. */
  action?: string;
  retryLimit?: number;
  /** One line, without the step id prefix; absent when the outcome gave none. */
  reason?: string;
  /** `reason` is the message of a crash of the step body (a bug). */
  crashed?: true;
  depth?: number;
  maxDepth?: number;
  workflow?: string;
  cause?: RunFailure;
  /** CALL_FAILED: the retry's workflow ended by a transfer to this workflow, which a retry's call does not follow. */
  transferTo?: string;
  via?: string[];
}

/** What later steps can see of a step: its outputs and whatever its outcome's `data` held (request, response). */
export interface StepState {
  outputs: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * What every workflow machine of one run shares, by reference (a run may nest, chain and transfer
 * machines): the step budget spent so far, the depth limit, and the latest inputs and outputs of
 * each workflow that finished (`$workflows.<id>`).
 */
export interface RunShared {
  runs: number;
  maxSteps: number;
  maxDepth: number;
  workflows: Record<string, { inputs: Record<string, unknown>; outputs: Record<string, unknown> }>;
  /** The keys of the workflows completed in the run (a run that ended succeeded; a dependency whose run, transfers included, did): dependsOn does not run them again. */
  completed: Record<string, true>;
  /** Arazzo 1.1: the steps that succeeded in the run, as `<workflow key>/<stepId>`, for step dependsOn across workflows. */
  stepsDone?: Record<string, true>;
}

/** The nested call a step is making: the records and transfers of the workflows it ran so far. */
export interface CallState {
  /** The called workflow's inputs (those of the workflows it transfers to, too). */
  inputs: Record<string, unknown>;
  records: StepRecord[];
  transfers: Transfer[];
  /** The dependencies the call's workflows ran first. */
  dependencies: DependencyRecord[];
  result?: WorkflowResult;
  /** Arazzo 1.1 step `timeout`: when the call must have ended (performance.now() milliseconds), transfers inside it included. */
  deadline?: number;
}

export interface WorkflowContext {
  workflowId: string;
  /** The workflow's key among the run's workflows (WorkflowPlan.key). */
  key: string;
  /** Where this machine runs: the nested step ids that called it, outermost first (empty for a top-level workflow). */
  via: string[];
  /** The actor path of this machine: `main`, `main/callLogin/login` for the workflow step callLogin of main calls (traces show it). */
  actor: string;
  /** Calls above this machine (0 for a top-level workflow). */
  depth: number;
  /** The keys of the workflows on the call stack, outermost first, this one's last. */
  stack: string[];
  run: RunShared;
  /** The current step's nested call. */
  call?: CallState;
  /** The workflow ended with a goto to another workflow. */
  transfer?: { to: string; stepId: string; inputs?: Record<string, unknown> };
  /** Step records carry `workflowId` (WorkflowPlan.recordsWorkflowId). */
  recordsWorkflowId: boolean;
  inputs: Record<string, unknown>;
  /** Expression data of the latest run of each step, by stepId: the fields of StepOutcome.data plus `outputs`. */
  steps: Record<string, StepState>;
  records: StepRecord[];
  /** Step body runs so far (retries and goto revisits included). */
  runs: number;
  maxSteps: number;
  /**
   * Retries used in the current visit of the current step: all of them, or with
   * WorkflowPlan.retriesPerAction those of the retry action that fired last (traces and the live
   * view show it as the retry's number).
   */
  retries: number;
  /** With WorkflowPlan.retriesPerAction: the retries each retry action used in this visit, by its place in the failure chain. */
  actionRetries: readonly number[];
  /** Outcome of the step's latest run, stored by `recordStep`. */
  last?: StepOutcome;
  /** Index of the step being run or judged. */
  current: number;
  retryDelayMs: number;
  outputs: Record<string, unknown>;
  failure?: RunFailure;
}

export interface WorkflowInput {
  inputs: Record<string, unknown>;
  maxSteps: number;
  /** Shared with the other machines of the run; a new one (maxDepth 32) when absent. */
  run?: RunShared;
  depth?: number;
  via?: string[];
  actor?: string;
  /** The callers' stack (WorkflowContext.stack of the machine that calls). */
  stack?: string[];
}

/** Input of one step run: what the `runStep` actor receives in a `run` event. */
export interface RunStepInput {
  stepIndex: number;
  stepId: string;
  inputs: Record<string, unknown>;
  steps: WorkflowContext['steps'];
  /** Nested step ids above this workflow, for progress lines (`callLogin/doLogin`). */
  via: readonly string[];
  /** `$workflows.<id>` of the run. */
  workflows: RunShared['workflows'];
  /** The keys of the workflows on the call stack (WorkflowContext.stack). */
  stack: readonly string[];
  /** A nested step: `call` evaluates the call's inputs; `judge` judges the finished call (`result`). An in-flight step: `launch` starts it and answers at once; its run at the join takes its outcome. */
  phase?: 'call' | 'judge' | 'launch';
  result?: WorkflowResult;
}

/**
 * Pure evaluation the machine needs, supplied by the caller (src/run wires the expression
 * evaluator; machine tests pass predicates). Must not throw.
 */
export interface Judge {
  /**
   * Whether criteria set `criteriaId` holds for `outcome` (false when it cannot be evaluated). The
   * machine judges on the `runStep.done` event, before the outcome is stored: `outcome` is the
   * event's; without it, `context.last`.
   */
  criteriaHold(criteriaId: number, context: WorkflowContext, outcome?: StepOutcome): boolean;
  /** Why criteria set `criteriaId` cannot be evaluated for `outcome` (or `context.last`), e.g. `operand cannot be coerced to a number`; undefined when it can. */
  criteriaError(criteriaId: number, context: WorkflowContext, outcome?: StepOutcome): string | undefined;
  /** Arazzo 1.1: the inputs an action's `parameters` (set `inputsId`) pass to its workflow, evaluated for `outcome` (or `context.last`); a parameter whose value resolves to nothing is left out. */
  actionInputs(inputsId: number, context: WorkflowContext, outcome?: StepOutcome): Record<string, unknown>;
  /** The workflow's outputs, evaluated at the end. */
  workflowOutputs(context: WorkflowContext): Record<string, unknown>;
}
