import type { StateConfig } from './workflow-setup.js';

/**
 * Gives every transition of a chart the keys XState's transition objects will have, in one order,
 * before XState reads the config. XState builds each transition as `{ ...config, actions, guard,
 * target, source, reenter, eventType, toJSON }`; on Node 20's V8, a spread followed by keys the
 * spread object lacked gets a hidden class of its own, every time (~320 B more per transition,
 * about six per step; docs/performance.md). With the keys already there (undefined; JSON drops
 * them, so graphs and golden configs are unchanged), every transition shares a few hidden classes.
 */
export function shapeTransitions(states: Record<string, StateConfig>): void {
  for (const state of Object.values(states)) shapeState(state);
}

type Node = Record<string, unknown>;

function shapeState(state: StateConfig): void {
  const node = state as Node;
  if (node.on) node.on = shapeEach(node.on as Node);
  if (node.after) node.after = shapeEach(node.after as Node);
  if (node.always !== undefined) node.always = shapeList(node.always);
  const invoke = node.invoke as Node | undefined;
  if (invoke && !Array.isArray(invoke) && invoke.onDone !== undefined) invoke.onDone = shapeList(invoke.onDone);
  if (node.states) shapeTransitions(node.states as Record<string, StateConfig>);
}

function shapeEach(transitions: Node): Node {
  const shaped: Node = {};
  for (const [key, value] of Object.entries(transitions)) shaped[key] = shapeList(value);
  return shaped;
}

function shapeList(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOne);
  return typeof value === 'object' && value !== null ? shapeOne(value as Node) : value;
}

/** The keys of XState's transition objects that a config may lack. */
const KEYS = ['target', 'guard', 'actions', 'reenter', 'description', 'meta', 'source', 'eventType', 'toJSON'];

/**
 * The transition with every key of KEYS, its own keys first in their order (JSON output keeps its
 * order). Built key by key from `{}`, so that equal key orders share one hidden class.
 */
function shapeOne(t: Node): Node {
  const shaped: Node = {};
  for (const key of Object.keys(t)) shaped[key] = t[key];
  for (const key of KEYS) if (!(key in shaped)) shaped[key] = undefined;
  return shaped;
}
