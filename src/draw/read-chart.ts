/**
 * Reads an XState machine config (`machine.config`, the object the machine runs, `always`
 * transitions included) into a small neutral chart that the Mermaid and Graphviz exporters draw.
 * Only what the config says is used: no implementation is called.
 */
import { actionName, transitionLabel, type TransitionConfig } from './transition-label.js';

/** A state of the chart; `path` is its key path from the root (`['s2_requestAdoption', 'backoff']`). */
export interface ChartState {
  path: string[];
  key: string;
  kind: 'atomic' | 'compound' | 'final';
  /** Key of the initial child of a compound state. */
  initial?: string;
  /** The config's `description`. */
  description?: string;
  /** The config's `meta.stepId`, when the state is a workflow step. */
  stepId?: string;
  /** What the state does while active: `entry / recordStep`, `invoke runStep`. */
  activities: string[];
  /** Set on an atomic or final state that no transition enters (e.g. the sub-states of a step after one v1 cannot run). */
  unreachable?: true;
  children: ChartState[];
}

/** One transition, from a state to a state, labelled for people. */
export interface ChartEdge {
  from: string[];
  to: string[];
  label: string;
}

export interface Chart {
  id: string;
  description?: string;
  root: ChartState;
  edges: ChartEdge[];
  /** Every state by its dotted path (`''` is the root). */
  states: Map<string, ChartState>;
}

/** Thrown when the config has a target the reader cannot resolve; a bug in the compiler, never in the document. */
export class ChartReadError extends Error {
  readonly code = 'UNRESOLVED_TARGET' as const;

  constructor(message: string) {
    super(message);
    this.name = 'ChartReadError';
  }
}

type Config = Record<string, unknown>;

/** Reads `machine.config` into a chart, states and edges in config order. Throws ChartReadError on a target it cannot resolve. */
export function readChart(config: object): Chart {
  const root = config as Config;
  const id = typeof root.id === 'string' ? root.id : '(machine)';
  const edges: ChartEdge[] = [];
  const state = readState(root, [], id, edges);
  const states = new Map<string, ChartState>();
  const index = (s: ChartState): void => {
    states.set(s.path.join('.'), s);
    s.children.forEach(index);
  };
  index(state);
  const chart: Chart = { id, root: state, edges, states };
  if (typeof root.description === 'string') chart.description = root.description;
  markUnreachable(chart);
  return chart;
}

/** Marks the leaves that cannot become active: entering a compound state lands on its initial leaf. */
function markUnreachable(chart: Chart): void {
  const outgoing = new Map<string, ChartEdge[]>();
  for (const edge of chart.edges) {
    const key = edge.from.join('.');
    const list = outgoing.get(key);
    if (list) list.push(edge);
    else outgoing.set(key, [edge]);
  }
  // A state is active when it or a descendant is: its own transitions and its ancestors' can fire.
  const active = new Set<string>();
  const queue: ChartState[] = [];
  const enter = (state: ChartState | undefined) => {
    for (let s = state; s; s = initialChild(s)) {
      for (let i = 0; i <= s.path.length; i++) {
        const key = s.path.slice(0, i).join('.');
        if (active.has(key)) continue;
        active.add(key);
        const holder = stateAt(chart, s.path.slice(0, i));
        if (holder) queue.push(holder);
      }
    }
  };
  enter(chart.root);
  for (let state = queue.shift(); state; state = queue.shift()) {
    for (const edge of outgoing.get(state.path.join('.')) ?? []) enter(stateAt(chart, edge.to));
  }
  const visit = (state: ChartState) => {
    if (state.kind !== 'compound' && !active.has(state.path.join('.'))) state.unreachable = true;
    state.children.forEach(visit);
  };
  visit(chart.root);
}

function readState(config: Config, path: string[], machineId: string, edges: ChartEdge[]): ChartState {
  const children = isObject(config.states) ? Object.entries(config.states) : [];
  const kind = config.type === 'final' ? 'final' : children.length > 0 ? 'compound' : 'atomic';
  const state: ChartState = { path, key: path.at(-1) ?? machineId, kind, activities: activities(config), children: [] };
  if (typeof config.initial === 'string') state.initial = config.initial;
  if (typeof config.description === 'string') state.description = config.description;
  if (isObject(config.meta) && typeof config.meta.stepId === 'string') state.stepId = config.meta.stepId;

  for (const [trigger, transitions] of triggers(config)) {
    transitions.forEach((transition, i) => {
      for (const target of targets(transition)) {
        const label = transitionLabel(transition, { trigger, ordinal: transitions.length > 1 ? i + 1 : undefined, first: i === 0 });
        edges.push({ from: path, to: resolveTarget(target, path, machineId), label });
      }
    });
  }
  for (const [key, child] of children) {
    if (isObject(child)) state.children.push(readState(child, [...path, key], machineId, edges));
  }
  return state;
}

/** Every trigger of a state with its ordered transitions: invoke done/error, events, eventless, delays. */
function triggers(config: Config): Array<[string | undefined, TransitionConfig[]]> {
  const found: Array<[string | undefined, TransitionConfig[]]> = [];
  for (const invoke of asList(config.invoke)) {
    if (!isObject(invoke)) continue;
    const src = typeof invoke.src === 'string' ? invoke.src : 'actor';
    if (invoke.onDone !== undefined) found.push([`done ${src}`, transitionsOf(invoke.onDone)]);
    if (invoke.onError !== undefined) found.push([`error ${src}`, transitionsOf(invoke.onError)]);
  }
  if (isObject(config.on)) {
    for (const [event, value] of Object.entries(config.on)) found.push([event, transitionsOf(value)]);
  }
  if (config.always !== undefined) found.push([undefined, transitionsOf(config.always)]);
  if (isObject(config.after)) {
    for (const [delay, value] of Object.entries(config.after)) found.push([`after ${delay}`, transitionsOf(value)]);
  }
  return found;
}

function transitionsOf(value: unknown): TransitionConfig[] {
  return asList(value).map((t) => (typeof t === 'string' ? { target: t } : isObject(t) ? (t as TransitionConfig) : {}));
}

function targets(transition: TransitionConfig): string[] {
  return asList(transition.target).filter((t): t is string => typeof t === 'string');
}

/** `#<machine id>.a.b` is absolute; `.x` is a child of the source; `x` is a sibling of the source. */
function resolveTarget(target: string, source: string[], machineId: string): string[] {
  const absolute = `#${machineId}`;
  if (target === absolute) return [];
  if (target.startsWith(`${absolute}.`)) return target.slice(absolute.length + 1).split('.');
  if (target.startsWith('#')) throw new ChartReadError(`cannot resolve target "${target}" of state "${source.join('.')}"`);
  if (target.startsWith('.')) return [...source, ...target.slice(1).split('.')];
  return [...source.slice(0, -1), ...target.split('.')];
}

function activities(config: Config): string[] {
  const found: string[] = [];
  const entry = asList(config.entry).map(actionName).filter((n) => n !== '');
  if (entry.length > 0) found.push(`entry / ${entry.join(', ')}`);
  for (const invoke of asList(config.invoke)) {
    if (isObject(invoke) && typeof invoke.src === 'string') found.push(`invoke ${invoke.src}`);
  }
  return found;
}

function asList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isObject(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Edges with the same two ends merged into one, whose `labels` list the transitions in config
 * order: drawn apart, renderers stack their labels on top of each other.
 */
export function mergeParallel(edges: readonly ChartEdge[]): Array<ChartEdge & { labels: string[] }> {
  const merged = new Map<string, ChartEdge & { labels: string[] }>();
  for (const edge of edges) {
    const key = `${edge.from.join('.')}->${edge.to.join('.')}`;
    const known = merged.get(key);
    if (known) known.labels.push(edge.label);
    else merged.set(key, { ...edge, labels: [edge.label] });
  }
  return [...merged.values()];
}

/** The state at `path`, or undefined. */
export function stateAt(chart: Chart, path: readonly string[]): ChartState | undefined {
  return chart.states.get(path.join('.'));
}

/** Where a transition into `state` lands: its initial descendants down to an atomic or final state. */
export function initialLeaf(state: ChartState): ChartState {
  let current = state;
  for (let next = initialChild(current); next; next = initialChild(current)) current = next;
  return current;
}

/** The child a compound state starts in (XState's default is the first one); undefined for a leaf. */
function initialChild(state: ChartState): ChartState | undefined {
  if (state.kind !== 'compound') return undefined;
  return state.children.find((c) => c.key === state.initial) ?? state.children[0];
}
