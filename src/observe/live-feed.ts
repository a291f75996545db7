/**
 * What the `--inspect` live view shows, worked out on the server from the run's events (run-events.ts):
 * one fact per transition of the workflow machine (one row of the page's log), with the step run
 * it judged (count, status, reason), the edge of the steps chart it took and the action that
 * fired on it, the retry wait, and how the run ended. The page only draws facts; the step data
 * itself (requests, responses, inputs, outputs) never reaches a fact, and reasons are masked.
 */
import type { InspectionEvent } from 'xstate';
import type { StepsChart, StepsEdge } from '../draw/steps-chart.js';
import { stepsEdgeId } from '../draw/steps-to-dot.js';
import { RUN_BUDGET_SPENT } from '../../machines/step-runner.js';
import type { ActionMeta, RunFailure, StepOutcome, WorkflowContext } from '../../machines/types.js';
import { secretNames } from '../output/redact.js';
import { styleFor } from '../output/style.js';
import { ownEvents } from './decode-run.js';
import { criteriaLines } from './explain-lines.js';
import { failureMessage } from './failure-message.js';
import type { RunEvents, StateChanged, StepExplained, TakenTransition, WorkflowFinished, WorkflowStarted } from './run-events.js';

/** A step as the live view shows it: how often it ran, and how its latest run went. */
export interface LiveStep {
  /** The state key (`s2_requestAdoption`), also the chart node's key. */
  key: string;
  stepId: string;
  /** Runs of the step so far (retries and goto revisits included). */
  runs: number;
  /** HTTP status of the latest run; 0 when no response arrived. */
  status: number;
  ok: boolean;
  dryRun?: true;
  /** Why the latest run failed, one line, secrets masked. */
  reason?: string;
  /**
   * The latest failed run's criteria with their operands, as stderr explains them
   * (`$statusCode == 200  →  503 == 200  false`), one line each, secrets masked and control
   * characters stripped.
   */
  explain?: string[];
  /** A nested workflow step (v2): the key of the workflow it calls ('' when the chart does not say); it has no HTTP status. */
  call?: string;
  /** v2: the key of the workflow the step belongs to, when it is not the selected workflow (its node key is `<workflow>/<state key>`). */
  workflow?: string;
}

/** An edge of the steps chart the run took: how often, and what took it the last time. */
export interface LiveEdge {
  /** The edge's SVG id (stepsEdgeId); absent when the chart draws no such edge. */
  id?: string;
  taken: number;
  /** The Arazzo action that took the edge the last time, by name; absent for `next step`, `fail` and the start. */
  action?: string;
  /** The action that fired (`busy: retry 1 of 3`, `poll: goto checkAdoption`), or `next step`, `fail`; '' for the start edge. */
  label: string;
}

/** One transition of the workflow machine: one row of the live view's log. */
export interface LiveFact {
  /** 1, 2, …: a viewer that reconnects skips what it has. */
  n: number;
  /** Milliseconds since the feed started. */
  at: number;
  /** The state left, as a dotted path (`s2_requestAdoption.calling`); '' for the first state. */
  from: string;
  /** The state entered (`s2_requestAdoption.backoff`, `failed`). */
  to: string;
  /** `start`, `step done`, `retry wait over`, `nested workflow done`, `invoked`, `done`, `stopped` (a called workflow's actor), or the XState event type. */
  event: string;
  /**
   * v2: the actor path of the workflow machine the fact is about (`main/callChild/child`), when it
   * is not the selected workflow's: a nested call's (or a retry's) child, or a top-level transfer's
   * target. Its states are keyed `<workflow>/<state key>`, as in the chart.
   */
  actor?: string;
  runs: number;
  maxSteps: number;
  /** Arazzo retries (retry actions that fired) so far in the run, in every workflow machine followed; not the transport retries of --tool-retry. */
  retries: number;
  /**
   * v2: a called workflow's machine reached its final state `succeeded` or `failed` (its node
   * is `<workflow>/succeeded` …); the selected workflow's end is `end`.
   */
  final?: 'succeeded' | 'failed';
  /** The step run this transition judged, as it stands after it. */
  step?: LiveStep;
  /** The chart edge this transition took, as it stands after it. */
  edge?: LiveEdge;
  /** On entering a backoff: when (epoch milliseconds, this machine's clock) the retry runs. */
  retryAt?: number;
  retryDelayMs?: number;
  /** The run is over. */
  end?: { status: string; failure?: { code: string; stepId?: string; message: string; explain?: string[] } };
}

/** The run's events the live view follows: the machines', and the explanation of each failed step run. */
export type LiveFeedEvent = MachineEvent | StepExplained;

/** The events of one workflow machine. */
type MachineEvent = WorkflowStarted | StateChanged | WorkflowFinished;

export interface LiveFeed {
  /** The fact an event adds, or undefined for the events the live view does not show. */
  take(event: LiveFeedEvent): LiveFact | undefined;
  /** Hands every fact the run's events on `bus` add to `publish`. */
  subscribe(bus: RunEvents, publish: (fact: LiveFact) => void): void;
  /** Without a run's bus (a lone machine, tests): the fact an XState inspection event adds, decoded by decode-run.ts. */
  observe(event: InspectionEvent): LiveFact | undefined;
  /** The latest state of every step that ran and every edge taken, and the finals called workflows reached, for a viewer that connects late. */
  summary(): { steps: LiveStep[]; edges: LiveEdge[]; finals: Array<{ key: string; status: 'succeeded' | 'failed' }> };
}

export interface LiveFeedOptions {
  /** Masks secrets in a reason or failure message (known values, credentials). */
  mask?: (text: string) => string;
  /** Epoch milliseconds (tests pass a fake clock). */
  now?: () => number;
  /**
   * The workflow the chart shows: the feed follows the first top-level actor running it and no
   * other (a v2 run also runs the workflow's dependencies and transfers as top-level actors).
   */
  workflowId?: string;
  /**
   * v2: the steps chart of each other workflow drawn (readWorkflows' `charts`, node ids
   * `<workflow>/<state key>`). The feed then also follows the workflow machines the followed one
   * runs as children (nested steps, retries that run a workflow) and the one it transfers to;
   * a workflow without a chart is followed all the same, its facts without edges.
   */
  charts?: ReadonlyMap<string, StepsChart>;
  /** v2: the nested workflow steps, by node id as drawn (`s1_callChild`, `child/s0_callGrandchild`), and the key of the workflow each calls. */
  calls?: ReadonlyMap<string, string>;
}

/** One workflow machine the feed follows, and the chart its facts are keyed on. */
interface Track {
  /** '' for the selected workflow's machine, `<workflow key>/` for the others. */
  prefix: string;
  stepIds: ReadonlyMap<string, string>;
  edges: readonly StepsEdge[];
  /** The actor path, for every machine but the selected workflow's. */
  actor?: string;
  workflow?: string;
  /** A top-level machine: its end is the run's, unless it transferred. */
  top: boolean;
  started: boolean;
  ended: boolean;
  /** The state path the machine is in (unprefixed): where a root-level transition leaves from. */
  path?: string;
}

/** Starts the live view's feed for one run of the workflow whose steps chart is `chart`. */
export function createLiveFeed(chart: StepsChart, options: LiveFeedOptions = {}): LiveFeed {
  const mask = options.mask ?? ((text: string) => text);
  const now = options.now ?? Date.now;
  const origin = now();
  const steps = new Map<string, LiveStep>();
  const edges = new Map<string, LiveEdge>();
  const finals = new Map<string, 'succeeded' | 'failed'>();
  // The explanation of a failed step run, by the step id stderr shows (`callChild/fetch`), until its run is judged; and the latest one of each step.
  const pendingExplain = new Map<string, string[]>();
  const explained = new Map<string, string[]>();
  // Nested steps whose call was made ready, when the chart does not name what they call.
  const calling = new Set<string>();
  let n = 0;
  let retries = 0;
  // By the actor's number: each top-level actor of a run has its own system, whose session ids start again at x:0.
  const tracks = new Map<number, Track>();
  // The systems of the top-level machines followed: their child machines are followed too.
  const systems = new Set<number>();
  let followed: number | undefined;
  /** The workflow a followed top-level machine transferred to: its top-level machine is followed next. */
  let transferTo: string | undefined;
  // The step ids of each workflow's chart, made once: a workflow called 1,000 times is followed by 1,000 tracks.
  const stepIdsOf = new Map<string | undefined, ReadonlyMap<string, string>>();
  const trackOf = (workflow: string | undefined, top: boolean, actor?: string): Track => {
    // The selected workflow called again (recursion) or transferred back to is drawn once: its own chart.
    const key = workflow === options.workflowId ? undefined : workflow;
    const drawn = key === undefined ? chart : (options.charts?.get(key) ?? { id: key, nodes: [], edges: [] });
    const prefix = key === undefined ? '' : `${key}/`;
    let stepIds = stepIdsOf.get(key);
    if (stepIds === undefined) stepIdsOf.set(key, (stepIds = new Map(drawn.nodes.filter((node) => node.kind === 'step').map((node) => [node.id, node.label]))));
    const track: Track = { prefix, stepIds, edges: drawn.edges, top, started: false, ended: false };
    if (key !== undefined) track.workflow = key;
    if (actor !== undefined) track.actor = actor;
    return track;
  };

  const fact = (track: Track, from: string, to: string, eventName: string, snapshot: { status?: string; context: WorkflowContext }): LiveFact => {
    const c = snapshot.context;
    const f: LiveFact = { n: ++n, at: now() - origin, from, to, event: eventName, runs: c.runs, maxSteps: c.maxSteps, retries };
    if (track.actor !== undefined) f.actor = track.actor;
    if (to.endsWith('.backoff')) {
      f.retryDelayMs = c.retryDelayMs;
      f.retryAt = now() + c.retryDelayMs;
    }
    const final = to.slice(track.prefix.length).split('.')[0] ?? to;
    if (snapshot.status === 'done' && track.top && c.transfer === undefined) f.end = { status: final, ...(c.failure ? { failure: shownFailure(c.failure) } : {}) };
    if (snapshot.status === 'done' && !track.top && (final === 'succeeded' || final === 'failed')) {
      f.final = final;
      finals.set(track.prefix + final, final);
    }
    return f;
  };
  const shownFailure = (failure: RunFailure) => ({ code: failure.code, ...(failure.stepId ? { stepId: failure.stepId } : {}), message: mask(failureMessage(failure)) });
  /** A failure of a step run's own (its criteria, an action on its outcome) goes with that run's explanation, once the run is recorded. */
  const explainFailure = (f: LiveFact, context: WorkflowContext) => {
    const failure = f.end?.failure, stepId = context.failure?.stepId;
    if (failure === undefined || stepId === undefined || !STEP_RUN_FAILURES.has(failure.code)) return;
    const explain = explained.get(shownStepId(context.via, stepId));
    if (explain !== undefined) failure.explain = explain;
  };

  const recordRun = (track: Track, key: string, outcome: StepOutcome, via: readonly string[]): LiveStep => {
    const runs = (steps.get(key)?.runs ?? 0) + 1;
    const stepId = track.stepIds.get(key) ?? key;
    const step: LiveStep = { key, stepId, runs, status: outcome.statusCode, ok: outcome.ok };
    if (track.workflow !== undefined) step.workflow = track.workflow;
    if (outcome.dryRun) step.dryRun = true;
    const call = options.calls?.get(key) ?? (calling.has(key) ? '' : undefined);
    if (call !== undefined) step.call = call;
    if (!outcome.ok && outcome.reason !== undefined) step.reason = mask(outcome.reason);
    const shown = shownStepId(via, stepId);
    const explain = pendingExplain.get(shown);
    pendingExplain.delete(shown);
    if (!outcome.ok && explain !== undefined && explain.length > 0) {
      step.explain = explain;
      explained.set(shown, explain);
    } else explained.delete(shown);
    steps.set(key, step);
    return { ...step };
  };

  const takeEdge = (track: Track, from: string, to: string, failure: boolean, label: string, action?: string): LiveEdge => {
    const drawn = findEdge(track.edges, from, to, failure);
    if (drawn === undefined) return { taken: 1, label, ...(action === undefined ? {} : { action }) };
    const id = stepsEdgeId(drawn);
    const edge: LiveEdge = { id, taken: (edges.get(id)?.taken ?? 0) + 1, label };
    if (action !== undefined) edge.action = action;
    edges.set(id, edge);
    return { ...edge };
  };

  const onStateChanged = (track: Track, event: StateChanged): LiveFact => {
    const { prefix, stepIds } = track;
    const transitions = event.transitions;
    // A root-level transition (the step budget spent) leaves the state the machine was in.
    const left = event.from === '' ? (track.path ?? '') : event.from;
    const from = left === '' ? '' : prefix + left.split('.')[0];
    track.path = event.state;
    const to = prefix + track.path;
    const outcome = event.outcome;
    const f = fact(track, left === '' ? '' : prefix + left, to, eventName(event.event), event);
    // Not a run: a nested step's call made ready (v2; its run is judged when the call is done).
    const ran = outcome !== undefined && outcome.call === undefined;
    if (outcome?.call !== undefined) calling.add(from);
    if (ran && stepIds.has(from)) f.step = recordRun(track, from, outcome, event.context.via);
    explainFailure(f, event.context);
    const taken = transitions.find((t) => actionMetaOf(t) !== undefined) ?? transitions[0];
    const meta = taken === undefined ? undefined : actionMetaOf(taken);
    if (meta?.actionType === 'retry' && meta.outcome === 'fired') f.retries = ++retries;
    const targetPath = taken?.target?.[0];
    const target = targetPath === undefined ? from : prefix + targetPath;
    // A chart edge: an Arazzo action, or a judged run leaving its step (moves inside a step are the engine's).
    const budgetSpent = event.event === RUN_BUDGET_SPENT;
    if (taken !== undefined && stepIds.has(from) && (actionMetaOf(taken) !== undefined || budgetSpent || (outcome !== undefined && target !== from))) {
      const failure = budgetSpent || (outcome !== undefined && !outcome.ok && !outcome.dryRun);
      const label = budgetSpent ? 'step budget spent' : edgeLabel(taken, target, stepIds, event.context.retries, outcome?.dryRun === true);
      f.edge = takeEdge(track, from, target, failure, label, actionMetaOf(taken)?.action);
    }
    return f;
  };

  /** The first state of a machine: entered by no transition (XState sends no microstep for it). */
  const onStart = (track: Track, event: WorkflowStarted): LiveFact => {
    track.started = true;
    track.path = event.state;
    const to = track.prefix + track.path;
    const f = fact(track, '', to, track.actor === undefined ? 'start' : 'invoked', event);
    // The chart's start edge has no label; neither has its fact.
    f.edge = takeEdge(track, `${track.prefix}start`, to.split('.')[0] ?? to, false, '');
    return f;
  };

  /** A machine the feed did not follow yet: the selected workflow's first, then its children and its transfer's target. */
  const follow = (event: MachineEvent): Track | undefined => {
    const context = event.context;
    const top = event.top;
    let track: Track | undefined;
    if (followed === undefined) {
      if (!top || (options.workflowId !== undefined && context.workflowId !== options.workflowId)) return undefined;
      followed = event.actor;
      track = trackOf(undefined, true);
    } else if (top && transferTo !== undefined && context.key === transferTo) {
      track = trackOf(transferTo, true, context.actor);
      transferTo = undefined;
    } else if (!top && systems.has(event.system) && options.charts !== undefined) {
      track = trackOf(context.key, false, context.actor);
    }
    if (track === undefined) return undefined;
    tracks.set(event.actor, track);
    systems.add(event.system);
    return track;
  };

  const take = (event: LiveFeedEvent): LiveFact | undefined => {
    if (event.type === 'step.explained') {
      // A failed step run's explanation comes before the machine judges the run.
      if (event.exchange.ok) return undefined;
      pendingExplain.set(event.stepId, explainLines(event, mask));
      // Runs of machines the feed does not follow (dependencies) are never judged here: keep the latest few.
      if (pendingExplain.size > MAX_PENDING_EXPLANATIONS) pendingExplain.delete(pendingExplain.keys().next().value as string);
      return undefined;
    }
    const track = tracks.get(event.actor) ?? follow(event);
    if (track === undefined || track.ended) return undefined;
    const context = event.context;
    if (event.type === 'state.changed') {
      const f = onStateChanged(track, event);
      if (track.top && event.status === 'done' && context.transfer !== undefined && options.charts !== undefined) transferTo = context.transfer.to;
      return f;
    }
    if (event.type === 'workflow.started') return track.started ? undefined : onStart(track, event);
    // A called workflow's end: done (it reached a final state; XState reports it after its caller moved on), or stopped by its caller.
    if (track.top) return undefined;
    track.ended = true;
    // What is left of an ended machine's track: that it ended (the shared one).
    tracks.set(event.actor, ENDED);
    const at = track.prefix + event.state;
    return fact(track, at, at, event.status, { context });
  };
  const subscribe = (bus: RunEvents, publish: (fact: LiveFact) => void) => {
    const publishFact = (event: LiveFeedEvent) => {
      const f = take(event);
      if (f !== undefined) publish(f);
    };
    bus.on('workflow.started', publishFact);
    bus.on('state.changed', publishFact);
    bus.on('workflow.finished', publishFact);
    bus.on('step.explained', publishFact);
  };
  // Without a run's bus: the facts of one inspection event (at most one: the feed follows one event of each microstep and snapshot).
  let latest: LiveFact | undefined;
  const own = ownEvents((bus) => subscribe(bus, (f) => (latest = f)));

  return {
    take,
    subscribe,
    observe(event) {
      latest = undefined;
      own.inspect(event);
      return latest;
    },
    summary: () => ({ steps: [...steps.values()].map((s) => ({ ...s })), edges: [...edges.values()].map((e) => ({ ...e })), finals: [...finals].map(([key, status]) => ({ key, status })) }),
  };
}

/** The track of every called workflow's machine that ended: the feed ignores its later events. */
const ENDED: Track = Object.freeze({ prefix: '', stepIds: new Map(), edges: [], top: false, started: true, ended: true }) as Track;

/** Explanations kept for step runs not judged yet (a run is judged right after its explanation). */
const MAX_PENDING_EXPLANATIONS = 100;

/** The failure codes of a step run's own failure, which its explanation explains. */
const STEP_RUN_FAILURES: ReadonlySet<string> = new Set(['STEP_FAILED', 'END_ACTION', 'RETRIES_EXHAUSTED']);

/** The step id as stderr and the executor's events name it: `callChild/fetch` for a step of a nested call. */
function shownStepId(via: readonly string[], stepId: string): string {
  return via.length === 0 ? stepId : `${via.join('/')}/${stepId}`;
}

/**
 * A failed run's criteria with their operands, as stderr words them (explain-lines.ts), unindented
 * once, masked and printable. Each part between stderr's two-space gaps is masked on its own, as
 * masking makes whitespace runs one space.
 */
function explainLines(event: StepExplained, mask: (text: string) => string): string[] {
  const known = { names: secretNames(event.exchange.request.auth), values: [] };
  const lines = criteriaLines(event.exchange.criteria?.() ?? [], known, styleFor(false));
  return lines.map((line) => line.replace(/^ {2}/, '').split('  ').map((part) => (part === '' ? '' : mask(part))).join('  '));
}

/** The drawn edge for a transition: the one on the outcome's side, else the only one between the two nodes. */
function findEdge(edges: readonly StepsEdge[], from: string, to: string, failure: boolean): StepsEdge | undefined {
  const between = edges.filter((e) => e.from === from && e.to === to);
  return between.find((e) => e.failure === failure) ?? (between.length === 1 ? between[0] : undefined);
}

/** What took an edge, in the chart's words: the action that fired, or `next step`, `fail`. */
function edgeLabel(transition: TakenTransition, target: string, stepIds: ReadonlyMap<string, string>, retries: number, dryRun: boolean): string {
  const meta = actionMetaOf(transition);
  if (meta !== undefined) {
    if (meta.outcome === 'limitReached') return `${meta.action}: retry limit reached`;
    if (meta.outcome === 'criteriaBroken') return `${meta.action}: criteria cannot be evaluated`;
    // A planned failure (a construct the runner profile refuses): its code, as the steps chart words it (`end unsupported`).
    if (meta.outcome === 'failed') return `${meta.action}: ${meta.actionType} ${(transition.failCode ?? 'failed').toLowerCase()}`;
    if (meta.actionType === 'goto') return `${meta.action}: goto ${stepIds.get(target) ?? target}`;
    if (meta.actionType === 'retry') {
      const limit = transition.guardParams?.retryLimit;
      return `${meta.action}: retry ${retries}${typeof limit === 'number' ? ` of ${limit}` : ''}`;
    }
    return `${meta.action}: end`;
  }
  const guard = transition.guard;
  if (guard === 'stepSucceeded') return dryRun ? 'next step (dry run)' : 'next step';
  if (guard === 'budgetSpent') return 'step budget spent';
  if (guard === undefined) return target === 'failed' ? 'fail' : 'next step';
  return String(guard);
}

/** Short names for the log: the backoff timer's long XState event type becomes `retry wait over`. */
function eventName(type: string): string {
  if (type === 'runStep.done') return 'step done';
  if (type === RUN_BUDGET_SPENT) return 'step budget spent';
  if (type.startsWith('xstate.done.actor.')) return 'nested workflow done';
  return type.startsWith('xstate.after.') ? 'retry wait over' : type;
}

function actionMetaOf(transition: TakenTransition): ActionMeta | undefined {
  const meta = transition.meta as Partial<ActionMeta> | undefined;
  return meta && typeof meta.action === 'string' && typeof meta.outcome === 'string' ? (meta as ActionMeta) : undefined;
}
