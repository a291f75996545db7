/**
 * The run's one stream of domain events. decode-run.ts turns XState's inspection events and the
 * step executor's callbacks into these; the trace, the live view, the stderr narration and the
 * report files subscribe to them, and none of them reads XState's internals. Events are data:
 * a string-literal `type` and plain fields. Each run makes its own bus (createRunEvents) and hands
 * it to the observers it starts; nothing here is module-level state.
 */
import type { ResponseCheck } from './response-checks.js';
import type { ActionMeta, StepOutcome, WorkflowContext } from '../../machines/types.js';
import type { HttpRequest, HttpResponse, TransportRetry } from '../http/types.js';
import type { StepExchange } from './explain-lines.js';

/**
 * Which workflow machine an event is about. `actor` and `system` are numbers the decoder gives
 * each machine actor and each actor system (1, 2, …, in order of appearance); `top` is a machine
 * a run started itself (the selected workflow, a dependency, a transfer's target), not a nested
 * call's child.
 */
export interface MachineRef {
  actor: number;
  system: number;
  top: boolean;
}

/** One transition a microstep took, as the machine's config declares it. */
export interface TakenTransition {
  /** The state path of the state that declares it (`['s2_pay', 'calling']`); empty at the root. */
  source: readonly string[];
  /** The state path of its first target, when it has one. */
  target?: readonly string[];
  /** Its guard's name and parameters, when it has one. */
  guard?: string;
  guardParams?: Readonly<Record<string, unknown>>;
  /** Names of its actions, in order. */
  actions: readonly string[];
  /** The code its `fail` action records, when it has one (a planned failure's code: `UNSUPPORTED`). */
  failCode?: string;
  /** An Arazzo action's transition (machines/chain-transitions.ts): which action, and what happened. */
  meta?: ActionMeta;
  /** The transition's description: an action's label. */
  description?: string;
}

/** A workflow machine's first state (it is entered by no transition). A nested call's child when `top` is false. */
export interface WorkflowStarted extends MachineRef {
  type: 'workflow.started';
  /** The state as a dotted path (`s0_login`). */
  state: string;
  status: string;
  context: WorkflowContext;
}

/** The machine took a microstep: it left `from` for `state` on `event`. */
export interface StateChanged extends MachineRef {
  type: 'state.changed';
  /** The state the first transition left, as a dotted path; '' for a transition of the root (the step budget spent). */
  from: string;
  state: string;
  /** Type of the event that caused it (`runStep.done`, `xstate.after.retryDelay…`). */
  event: string;
  /** The step outcome the event carried (`runStep.done`), or undefined. */
  outcome?: StepOutcome;
  transitions: readonly TakenTransition[];
  /** `active`, or `done` when it reached a final state. */
  status: string;
  /** The machine's context after the microstep; read it when the event arrives, do not keep it. */
  context: WorkflowContext;
}

/** An Arazzo action's transition was taken (before the `state.changed` of the same microstep). */
export interface ActionFired extends MachineRef {
  type: 'action.fired';
  /** The state key of the step whose chain it belongs to (`s2_pay`). */
  stateKey: string;
  meta: ActionMeta;
  /** The transition's description: the action's label. */
  label: string;
  /** The context after the microstep: the retry's number and wait for a retry. */
  context: WorkflowContext;
}

/** The runStep actor was asked to run a step (or judge a nested step's call). */
export interface StepStarted {
  type: 'step.started';
  stepIndex: number;
  stepId: string;
  /** Nested step ids above the step's workflow. */
  via: readonly string[];
  phase?: 'call' | 'judge';
  budgetSpent?: true;
}

/** A step entered its retry wait (after the `state.changed` that entered `backoff`). */
export interface RetryWaiting extends MachineRef {
  type: 'retry.waiting';
  stateKey: string;
  retries: number;
  delayMs: number;
}

/** A top-level workflow ended by a goto to another workflow (v2). */
export interface TransferTaken extends MachineRef {
  type: 'transfer';
  workflowId: string;
  stepId: string;
  to: string;
}

/** A workflow machine reached a final state (`done`) or was stopped by its caller (`stopped`). */
export interface WorkflowFinished extends MachineRef {
  type: 'workflow.finished';
  state: string;
  status: 'done' | 'stopped';
  context: WorkflowContext;
}

/** A dry run: the request a step would send. */
export interface RequestPlanned {
  type: 'request.dryRun';
  stepId: string;
  request: HttpRequest;
}

/** A step's request was sent and answered (`response`), or failed without a response. */
export interface StepAnswered {
  type: 'step.response';
  stepId: string;
  request: HttpRequest;
  response?: HttpResponse;
  ok: boolean;
  reason?: string;
  /** --checks warn|fail: how the response compares with the operation's declared responses. */
  checks?: ResponseCheck;
}

/** What an asynchronous step (Arazzo 1.1, AsyncAPI) did on its channel: a send handed over, a receive launched (in flight) or ended. */
export interface MessageNote {
  action: 'send' | 'receive' | 'launch';
  /** The channel address. */
  channel: string;
  /** The broker or server URL (without credentials). */
  server: string;
  ok: boolean;
  reason?: string;
  /** Milliseconds from the step's start (a receive: from its launch) to this note. */
  durationMs: number;
}

/** An asynchronous step's message was sent or received, or its wait failed. */
export interface StepMessage extends MessageNote {
  type: 'step.message';
  stepId: string;
}

/** A step failed before sending anything (an expression, a body, a nested call's inputs). */
export interface StepFailedEarly {
  type: 'step.failedEarly';
  stepId: string;
  reason: string;
}

/** The pipeline is about to retry a step's request (a transport retry, not an Arazzo one). */
export interface RequestRetried {
  type: 'request.retry';
  stepId: string;
  retry: TransportRetry;
}

/** A nested workflow step (v2) is judged: the workflow it called, and whether it succeeded. */
export interface CallEnded {
  type: 'call.ended';
  stepId: string;
  workflowId: string;
  ok: boolean;
  reason?: string;
}

/** A sent step's exchange, with its criteria explained on demand: every one, for the report files (the executor builds it only when something listens). */
export interface CriteriaJudged {
  type: 'criteria.judged';
  stepId: string;
  exchange: StepExchange;
}

/** A step's exchange for stderr to explain: a failed step's, or every step's with --verbose. */
export interface StepExplained {
  type: 'step.explained';
  stepId: string;
  exchange: StepExchange;
}

export interface Warning {
  type: 'warning';
  message: string;
}

export interface Info {
  type: 'info';
  message: string;
}

/**
 * XState's own inspection event, passed through for the one observer that speaks XState's
 * protocol: the Stately inspector bridge of `--inspect`, which relays it (stripped) to the
 * Stately page. No other observer subscribes to it.
 */
export interface MachineInspected {
  type: 'machine.inspected';
  event: object;
}

export type RunEvent =
  | WorkflowStarted
  | StateChanged
  | ActionFired
  | StepStarted
  | RetryWaiting
  | TransferTaken
  | WorkflowFinished
  | RequestPlanned
  | StepAnswered
  | StepFailedEarly
  | StepMessage
  | RequestRetried
  | CallEnded
  | CriteriaJudged
  | StepExplained
  | Warning
  | Info
  | MachineInspected;

export type RunEventType = RunEvent['type'];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** The events the machine's inspection yields (the decoder turns XState's inspection on only when one of them has a listener). */
export const MACHINE_EVENTS: readonly RunEventType[] = ['workflow.started', 'state.changed', 'action.fired', 'step.started', 'retry.waiting', 'transfer', 'workflow.finished', 'machine.inspected'];

/** One run's event bus: observers subscribe by type, the decoder emits. */
export interface RunEvents {
  on<T extends RunEventType>(type: T, listener: (event: RunEventOf<T>) => void): void;
  /** Whether anything listens to `type`: the decoder builds an event only when something does. */
  wants(type: RunEventType): boolean;
  emit(event: RunEvent): void;
}

/** A new bus for one run, with no listeners. */
export function createRunEvents(): RunEvents {
  const listeners = new Map<RunEventType, Array<(event: RunEvent) => void>>();
  return {
    on(type, listener) {
      const list = listeners.get(type);
      if (list) list.push(listener as (event: RunEvent) => void);
      else listeners.set(type, [listener as (event: RunEvent) => void]);
    },
    wants: (type) => listeners.has(type),
    emit(event) {
      const list = listeners.get(event.type);
      if (list === undefined) return;
      for (const listener of list) listener(event);
    },
  };
}
