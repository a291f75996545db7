/**
 * The `--trace` writer: one JSON line per state change, Arazzo action and step request of a run
 * (schema `v: 1`, documented in docs/state-machine.md). It reads the run's events (run-events.ts);
 * it never sees headers or bodies, and URLs are redacted.
 */
import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { InspectionEvent } from 'xstate';
import { stepKey, SUB_STATE } from '../../machines/state-keys.js';
import type { ActionOutcome, WorkflowContext, WorkflowPlan } from '../../machines/types.js';
import { FileError, ToolError } from '../errors/tool-error.js';
import { redactRequest, redactText, secretValuesOf } from '../output/redact.js';
import { failureMessage } from './failure-message.js';
import { ownEvents } from './decode-run.js';
import type { Reporter } from './reporter.js';
import type { ActionFired, RunEvents, StateChanged, WorkflowStarted } from './run-events.js';

const FLUSH_AT = 64 * 1024;

/** Version of the line schema; bump it when a field changes meaning or goes away. */
export const TRACE_VERSION = 1;

export type TraceLineType = 'start' | 'state' | 'action' | 'step' | 'end';

/** Fields every line has; the rest depend on `type` (see docs/state-machine.md). */
export interface TraceLine {
  v: typeof TRACE_VERSION;
  /** Milliseconds since the run started, 3 decimals. */
  t: number;
  type: TraceLineType;
  [field: string]: unknown;
}

/** Thrown by `finish()` when the trace file could not be written (disk full, removed device). */
export class TraceWriteError extends ToolError {
  constructor(path: string, cause: unknown) {
    super('TRACE_WRITE_FAILED', `could not write the trace ${path}: ${(cause as Error).message ?? String(cause)}`);
    this.name = 'TraceWriteError';
  }
}

/**
 * Opens (creates or truncates) the trace file, relative to `cwd`. A new file gets mode 0600 (a
 * trace names the requests of a run); an existing one keeps its mode. A symbolic link at the path
 * is replaced by the file, never written through (as the report files replace theirs): a link
 * planted in a shared folder cannot make the trace overwrite another file. Throws FileError
 * (exit 2) when it cannot be written.
 */
export async function openTraceFile(path: string, cwd: string): Promise<Writable> {
  const target = resolve(cwd, path);
  try {
    if ((await lstat(target).catch(() => undefined))?.isSymbolicLink()) await unlink(target);
    // O_NOFOLLOW: a link put back between the unlink and the open fails the open (ELOOP).
    const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o600);
    return handle.createWriteStream({ highWaterMark: 64 * 1024 });
  } catch (error) {
    throw new FileError(`cannot write the trace file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'Give --trace a path in a folder that exists and that you can write to.');
  }
}

export interface Tracer {
  /** Writes the lines of the run's events on `bus` (state changes, actions, step requests). */
  subscribe(bus: RunEvents): void;
  /** Without a run's bus (a lone machine, tests): the observer to pass as `createActor(machine, { inspect })`, decoded by decode-run.ts. */
  inspect(event: InspectionEvent): void;
  /** Without a run's bus: a reporter that forwards everything to `inner` and traces each step's request and response. */
  reporter(inner: Reporter): Reporter;
  /** Writes the `end` line from the final context and flushes the stream; later calls do nothing. Rejects with TraceWriteError if a write failed. */
  finish(context: WorkflowContext | undefined, interrupted: boolean): Promise<void>;
}

export interface TracerOptions {
  maxSteps: number;
  /** The trace's name in error messages. */
  path?: string;
  /** A monotonic clock in milliseconds (tests pass a fake one). */
  now?: () => number;
  /** Values written as `***` wherever they appear (--input-env inputs); request credentials are added as steps run. */
  secrets?: readonly string[];
  /** v2: every workflow of the run by key; lines of a machine are read with its own plan and carry its actor path. */
  workflows?: ReadonlyMap<string, { plan: WorkflowPlan }>;
}

/** How an `action` line marks, in its flag and its label, an action whose transition stopped the workflow instead of firing. */
const STOPPED: Partial<Record<ActionOutcome, { flag: string; suffix: string }>> = {
  limitReached: { flag: 'limitReached', suffix: ' (limit reached)' },
  criteriaBroken: { flag: 'criteriaBroken', suffix: ' (criteria cannot be evaluated)' },
};

/** Starts a trace of one run of `plan` on `out` (a buffered stream: writes never block); writes the `start` line. */
export function createTracer(out: Writable, plan: WorkflowPlan, options: TracerOptions): Tracer {
  const now = options.now ?? (() => performance.now());
  const origin = now();
  // Step ids by state key, of the selected workflow and (v2) of every workflow by key.
  const stepIds = (of: WorkflowPlan) => new Map(of.steps.map((step, index) => [stepKey(index, step.stepId), step.stepId] as const));
  const entrySteps = stepIds(plan);
  const byKey = new Map([...(options.workflows ?? [])].map(([key, w]) => [key, stepIds(w.plan)] as const));
  const stepsOf = (context: WorkflowContext | undefined) => (context && byKey.get(context.key)) ?? entrySteps;
  const v2 = options.workflows !== undefined;
  let counters = { retries: 0, runs: 0 };
  const known = new Set(options.secrets ?? []);
  const masked = (text: string) => redactText(text, { values: known });
  let done = false;
  let failure: unknown;
  let pending = '';
  let flushSoon: NodeJS.Immediate | undefined;
  // Without a listener a failed write would crash the run; the error is reported by finish().
  out.on('error', (error) => {
    failure ??= error;
  });

  const write = (type: TraceLineType, fields: Record<string, unknown>, at = now()) => {
    if (done || failure !== undefined) return;
    const line: TraceLine = { v: TRACE_VERSION, t: Math.round((at - origin) * 1000) / 1000, type, ...fields };
    pending += `${JSON.stringify(line)}\n`;
    // Lines of one macrostep go out as one write, on the next turn of the event loop or once 64 KiB wait.
    if (pending.length >= FLUSH_AT) flush();
    else flushSoon ??= setImmediate(flush);
  };
  const flush = () => {
    if (flushSoon) clearImmediate(flushSoon);
    flushSoon = undefined;
    if (pending === '' || failure !== undefined) return;
    out.write(pending);
    pending = '';
  };

  // The state each machine is in: a transition of the machine itself (the step budget spent) leaves it.
  const lastState = new Map<number, string>();
  const onAction = (event: ActionFired) => {
    const owner = stepsOf(event.context).get(event.stateKey);
    if (owner === undefined) return;
    const stopped = STOPPED[event.meta.outcome];
    const label = stopped ? `${event.label}${stopped.suffix}` : event.label;
    const fields: Record<string, unknown> = { stepId: owner, action: event.meta.action, actionType: event.meta.actionType, label };
    if (stopped) fields[stopped.flag] = true;
    // An action line's runs are those before its transition: a goto's transition also enters the
    // target step, which starts (and counts) its next run.
    write('action', { ...(v2 ? { actor: event.context.actor } : {}), ...fields, retries: event.context.retries, runs: counters.runs });
  };
  const onStateChanged = (event: StateChanged) => {
    counters = { retries: event.context.retries, runs: event.context.runs };
    const actions = event.transitions.flatMap((t) => t.actions);
    const from = event.from !== '' ? event.from : (lastState.get(event.actor) ?? '');
    lastState.set(event.actor, writeState(event.state, event.context, from, event.event, actions));
  };
  const writeState = (state: string, context: WorkflowContext, from: string, eventType: string, actions: readonly string[]) => {
    const fields: Record<string, unknown> = v2 ? { actor: context.actor, state, from, event: eventType } : { state, from, event: eventType };
    const stepId = stepsOf(context).get(state.split('.')[0] ?? '');
    if (stepId !== undefined) fields.stepId = stepId;
    Object.assign(fields, counters, { maxSteps: context.maxSteps });
    if (actions.length > 0) fields.actions = actions;
    if (state.endsWith(`.${SUB_STATE.backoff}`)) fields.retryDelayMs = context.retryDelayMs;
    write('state', fields);
    return state;
  };
  // The machine's first state is entered by no transition (XState sends no microstep for it): its
  // line comes from the machine's first snapshot, once the first step's run has been counted.
  const onStarted = (event: WorkflowStarted) => {
    // v2: a nested workflow's machine starts the same way, as a child actor.
    if (!v2 && !event.top) return;
    counters = { retries: event.context.retries, runs: event.context.runs };
    lastState.set(event.actor, writeState(event.state, event.context, '', 'xstate.init', []));
  };
  const subscribe = (bus: RunEvents) => {
    bus.on('workflow.started', onStarted);
    bus.on('action.fired', onAction);
    bus.on('state.changed', onStateChanged);
    bus.on('request.dryRun', ({ stepId, request }) => {
      const shown = redactRequest(request, known);
      write('step', { stepId, dryRun: true, method: shown.method, url: shown.url, ...counters });
    });
    bus.on('step.response', ({ stepId, request, response, ok, reason }) => {
      if (request.auth !== undefined) for (const value of secretValuesOf(request)) known.add(value);
      const shown = redactRequest(request, known);
      const fields: Record<string, unknown> = { stepId, method: shown.method, url: shown.url, status: response?.status ?? 0, ok };
      if (response) fields.durationMs = Math.round(response.durationMs * 1000) / 1000;
      if (response && response.retries > 0) fields.transportRetries = response.retries;
      if (!ok && reason !== undefined) fields.reason = masked(reason);
      write('step', { ...fields, ...counters });
    });
    bus.on('step.failedEarly', ({ stepId, reason }) => write('step', { stepId, status: 0, ok: false, reason: masked(reason), ...counters }));
    // Arazzo 1.1 asynchronous steps: a launch, then the send or receive, each with the channel (a receive in flight overlaps the steps between).
    bus.on('step.message', ({ stepId, action, channel, server, ok, reason, durationMs }) => {
      const fields: Record<string, unknown> = { stepId, message: action, channel: masked(channel), server: masked(server), ok, durationMs: Math.round(durationMs * 1000) / 1000 };
      if (!ok && reason !== undefined) fields.reason = masked(reason);
      write('step', { ...fields, ...counters });
    });
  };
  const own = ownEvents(subscribe);

  write('start', { workflowId: plan.workflowId, steps: plan.steps.length, maxSteps: options.maxSteps }, origin);
  return {
    subscribe,
    inspect: own.inspect,
    reporter: own.reporter,
    async finish(context, interrupted) {
      if (done) return;
      const status = interrupted ? 'interrupted' : context?.failure ? 'failed' : context ? 'succeeded' : 'error';
      const fields: Record<string, unknown> = { status, runs: context?.runs ?? counters.runs, records: context?.records.length ?? 0 };
      if (context?.failure) {
        const { code, stepId } = context.failure;
        fields.failure = { code, stepId, message: masked(failureMessage(context.failure)) };
      }
      write('end', fields);
      flush();
      done = true;
      out.end();
      await finished(out).catch((error: unknown) => {
        failure ??= error;
      });
      if (failure !== undefined) throw new TraceWriteError(options.path ?? 'file', failure);
    },
  };
}
