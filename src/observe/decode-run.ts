/**
 * The one decoder of a run: XState's inspection events (`createActor(machine, { inspect })`) and
 * the step executor's callbacks (its reporter and `onExchange`) become the domain events of
 * run-events.ts. It builds only the events something listens to, so a run whose observers want
 * only action lines pays for nothing else, and a run nobody observes turns inspection off.
 */
import type { InspectionEvent } from 'xstate';
import type { ActionMeta, StepOutcome, WorkflowContext } from '../../machines/types.js';
import type { StepExchange } from './explain-lines.js';
import type { StepReporter } from './reporter.js';
import { MACHINE_EVENTS, createRunEvents, type MachineRef, type RunEvents, type TakenTransition } from './run-events.js';
import { statePath } from './state-path.js';

/** What XState's transition definitions hold that the decoder reads. */
interface TransitionDefinition {
  source: { path: string[] };
  target?: ReadonlyArray<{ path: string[] }>;
  guard?: unknown;
  actions: readonly unknown[];
  meta?: unknown;
  description?: string;
}

/**
 * The inspection observer that feeds `bus`: pass it as `createActor(machine, { inspect })`.
 * Undefined when nothing listens to the events a machine yields: then the run does not inspect.
 */
export function inspectionDecoder(bus: RunEvents): ((event: InspectionEvent) => void) | undefined {
  if (!MACHINE_EVENTS.some((type) => bus.wants(type))) return undefined;
  const relay = bus.wants('machine.inspected');
  const actorIds = new WeakMap<object, number>();
  const systemIds = new WeakMap<object, number>();
  const idOf = (ids: WeakMap<object, number>, key: object): number => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids === actorIds ? ++actors : ++systems));
    return id;
  };
  let actors = 0;
  let systems = 0;
  const refOf = (event: InspectionEvent): MachineRef => ({
    actor: idOf(actorIds, event.actorRef),
    system: idOf(systemIds, ((event.actorRef as { system?: object }).system ?? event.actorRef) as object),
    top: event.actorRef.sessionId === event.rootId,
  });

  const onMicrostep = (event: InspectionEvent & { type: '@xstate.microstep' }) => {
    const snapshot = event.snapshot as unknown as { status: string; value: unknown; context?: WorkflowContext };
    const context = snapshot.context;
    if (context === undefined || typeof context.workflowId !== 'string') return;
    const transitions = (event._transitions ?? []) as unknown as TransitionDefinition[];
    let ref: MachineRef | undefined;
    if (bus.wants('action.fired')) {
      for (const transition of transitions) {
        // Only the transitions of Arazzo actions carry meta (machines/chain-transitions.ts).
        const meta = transition.meta as ActionMeta | undefined;
        if (meta === undefined) continue;
        ref ??= refOf(event);
        bus.emit({ type: 'action.fired', ...ref, stateKey: transition.source.path[0] ?? '', meta, label: transition.description ?? '', context });
      }
    }
    const wantsState = bus.wants('state.changed');
    const waits = bus.wants('retry.waiting');
    const transfers = bus.wants('transfer') && snapshot.status === 'done' && context.transfer !== undefined;
    if (!wantsState && !waits && !transfers) return;
    ref ??= refOf(event);
    const state = statePath(snapshot.value);
    if (wantsState) {
      const taken = transitions.map(takenTransition);
      const from = (taken[0]?.source ?? []).join('.');
      const changed = { type: 'state.changed' as const, ...ref, from, state, event: event.event.type, transitions: taken, status: snapshot.status, context };
      const outcome = stepOutcomeOf(event.event);
      bus.emit(outcome === undefined ? changed : { ...changed, outcome });
    }
    if (waits && state.endsWith('.backoff')) bus.emit({ type: 'retry.waiting', ...ref, stateKey: state.split('.')[0] ?? state, retries: context.retries, delayMs: context.retryDelayMs });
    if (transfers && ref.top) bus.emit({ type: 'transfer', ...ref, workflowId: context.workflowId, stepId: context.transfer!.stepId, to: context.transfer!.to });
  };

  const onSnapshot = (event: InspectionEvent & { type: '@xstate.snapshot' }) => {
    const snapshot = event.snapshot as unknown as { status: string; value: unknown; context?: WorkflowContext };
    const context = snapshot.context;
    if (context === undefined || typeof context.workflowId !== 'string') return;
    if (event.event.type === 'xstate.init') {
      if (bus.wants('workflow.started')) bus.emit({ type: 'workflow.started', ...refOf(event), state: statePath(snapshot.value), status: snapshot.status, context });
    } else if ((snapshot.status === 'done' || snapshot.status === 'stopped') && bus.wants('workflow.finished')) {
      bus.emit({ type: 'workflow.finished', ...refOf(event), state: statePath(snapshot.value), status: snapshot.status, context });
    }
  };

  const onEvent = (event: InspectionEvent & { type: '@xstate.event' }) => {
    const sent = event.event as { type: string; input?: { stepIndex: number; stepId: string; via: readonly string[]; phase?: 'call' | 'judge' }; budgetSpent?: boolean };
    if (sent.type !== 'run' || sent.input === undefined) return;
    const { stepIndex, stepId, via, phase } = sent.input;
    bus.emit({ type: 'step.started', stepIndex, stepId, via, ...(phase === undefined ? {} : { phase }), ...(sent.budgetSpent ? { budgetSpent: true as const } : {}) });
  };

  return (event) => {
    if (relay) bus.emit({ type: 'machine.inspected', event });
    if (event.type === '@xstate.microstep') onMicrostep(event);
    else if (event.type === '@xstate.snapshot') onSnapshot(event);
    else if (event.type === '@xstate.event' && bus.wants('step.started')) onEvent(event);
  };
}

/**
 * The step executor's reporter and `onExchange` as events on `bus`; `inner`, when given, is told
 * everything too, after the bus (a caller without a run's bus: a lone tracer, tests).
 */
export function executorEvents(bus: RunEvents, inner?: StepReporter): { reporter: StepReporter; onExchange?: (stepId: string, exchange: StepExchange) => void } {
  const reporter: StepReporter = {
    warn(message) {
      if (bus.wants('warning')) bus.emit({ type: 'warning', message });
      inner?.warn(message);
    },
    info(message) {
      if (bus.wants('info')) bus.emit({ type: 'info', message });
      inner?.info(message);
    },
    dryRun(stepId, request) {
      bus.emit({ type: 'request.dryRun', stepId, request });
      inner?.dryRun(stepId, request);
    },
    stepDone(stepId, request, response, ok, reason, checks) {
      if (bus.wants('step.response')) bus.emit(withOptional({ type: 'step.response', stepId, request, ok }, { response, reason, checks }));
      inner?.stepDone(stepId, request, response, ok, reason, checks);
    },
    stepFailedEarly(stepId, reason) {
      bus.emit({ type: 'step.failedEarly', stepId, reason });
      inner?.stepFailedEarly(stepId, reason);
    },
    messageDone(stepId, note) {
      bus.emit({ type: 'step.message', stepId, ...note });
      inner?.messageDone(stepId, note);
    },
    callDone(stepId, workflowId, ok, reason) {
      bus.emit(withOptional({ type: 'call.ended', stepId, workflowId, ok }, { reason }));
      inner?.callDone(stepId, workflowId, ok, reason);
    },
    exchange(stepId, exchange) {
      bus.emit({ type: 'step.explained', stepId, exchange });
      inner?.exchange(stepId, exchange);
    },
    transportRetry(stepId, retry) {
      bus.emit({ type: 'request.retry', stepId, retry });
      inner?.transportRetry(stepId, retry);
    },
  };
  // The executor builds every step's exchange (and explains its criteria) only for a listener.
  return bus.wants('criteria.judged') ? { reporter, onExchange: (stepId, exchange) => bus.emit({ type: 'criteria.judged', stepId, exchange }) } : { reporter };
}

/**
 * For an observer used without a run's bus (a lone machine, tests): a bus of its own, which
 * `subscribe` listens to (made on first use), its inspection observer and a reporter feeding it.
 */
export function ownEvents(subscribe: (bus: RunEvents) => void) {
  let own: { bus: RunEvents; decode: ((event: InspectionEvent) => void) | undefined } | undefined;
  const stream = () => {
    if (own === undefined) {
      const bus = createRunEvents();
      subscribe(bus);
      own = { bus, decode: inspectionDecoder(bus) };
    }
    return own;
  };
  return {
    inspect: (event: InspectionEvent) => stream().decode?.(event),
    reporter: <R extends StepReporter>(inner: R): R => ({ ...inner, ...executorEvents(stream().bus, inner).reporter }),
  };
}

function takenTransition(transition: TransitionDefinition): TakenTransition {
  const taken: TakenTransition = { source: transition.source.path, actions: transition.actions.map(actionName).filter((name) => name !== '') };
  const target = transition.target?.[0]?.path;
  if (target !== undefined) taken.target = target;
  const guard = transition.guard;
  if (typeof guard === 'string') taken.guard = guard;
  else if (typeof guard === 'object' && guard !== null) {
    const { type, params } = guard as { type?: unknown; params?: unknown };
    if (typeof type === 'string') taken.guard = type;
    if (typeof params === 'object' && params !== null) taken.guardParams = params as Record<string, unknown>;
  }
  const failCode = transition.actions.map((action) => failCodeOf(action)).find((code) => code !== undefined);
  if (failCode !== undefined) taken.failCode = failCode;
  if (transition.meta !== undefined) taken.meta = transition.meta as ActionMeta;
  if (transition.description !== undefined) taken.description = transition.description;
  return taken;
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  const type = (action as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : '';
}

/** The `code` parameter of a `fail` action, else undefined. */
function failCodeOf(action: unknown): string | undefined {
  if (actionName(action) !== 'fail') return undefined;
  const code = (action as { params?: { code?: unknown } }).params?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The step outcome a `runStep.done` event (or a nested call's done event) carries. */
function stepOutcomeOf(event: { type: string }): StepOutcome | undefined {
  const output = (event as { output?: unknown }).output;
  if (typeof output !== 'object' || output === null) return undefined;
  const o = output as Partial<StepOutcome>;
  return typeof o.statusCode === 'number' && typeof o.ok === 'boolean' ? (o as StepOutcome) : undefined;
}

/** `event` with the optional fields that are defined (exactOptionalPropertyTypes). */
function withOptional<T extends object, O extends object>(event: T, optional: O): T & Partial<O> {
  const out = event as T & Partial<O>;
  for (const key in optional) if (optional[key] !== undefined) (out as Record<string, unknown>)[key] = optional[key];
  return out;
}
