/**
 * The steps chart read back out of a compiled machine config, for the `--inspect` live view until
 * src/run hands it the plans (`arazzo graph` draws from the plans: steps-chart.ts builds the same
 * chart, test/unit/draw/steps-chart.test.ts checks they agree). Reads a compiled workflow's
 * machine config (`machine.config`) into the steps-level chart: one
 * node per step plus `start`, `succeeded` and `failed`, and only the edges a reader of the Arazzo
 * document thinks in: the Arazzo actions, "next step" for a success no action took, and "fail"
 * for a failure no action took. The engine's own transitions (budget spent, dry run, a retry limit
 * reached, criteria that cannot be evaluated, the backoff timer) are left out. Labels are made
 * from the transitions' data (`meta`, guard and action parameters, target keys) and a few fixed
 * words.
 */
import { calledKey } from '../../machines/call-states.js';
import { SUB_STATE } from '../../machines/state-keys.js';
import type { ActionMeta, FailureCode } from '../../machines/types.js';
import type { WorkflowSteps } from './read-workflows.js';
import { STEP_WORDS, type StepsChart, type StepsEdge, type StepsNode } from './steps-chart.js';
import { actionName, type TransitionConfig } from './transition-label.js';

type Config = Record<string, unknown>;

/** Criteria longer than this go one per line under the action, so labels stay narrow. */
const ONE_LINE = 40;

/** Reads `machine.config` into the steps-level chart, nodes and edges in config order. */
export function readSteps(config: object): StepsChart {
  const root = config as Config;
  const id = typeof root.id === 'string' ? root.id : 'workflow';
  const states = isObject(root.states) ? root.states : {};
  const nodes: StepsNode[] = [{ id: 'start', kind: 'start', label: STEP_WORDS.start }];
  const edges: StepsEdge[] = [];
  const add = (from: string, to: string, label: string, failure: boolean, transfer?: string): void => {
    const known = edges.find((e) => e.from === from && e.to === to && e.failure === failure && e.transfer === transfer);
    if (known) known.labels.push(label);
    else edges.push({ from, to, labels: [label], failure, ...(transfer === undefined ? {} : { transfer }) });
  };
  if (typeof root.initial === 'string') add('start', root.initial, '', false);
  const stepIdOf = (key: string): string => {
    const state = states[key];
    return isObject(state) && isObject(state.meta) && typeof state.meta.stepId === 'string' ? state.meta.stepId : key;
  };

  for (const [key, state] of Object.entries(states)) {
    if (!isObject(state)) continue;
    if (state.type === 'final') {
      nodes.push({ id: key, kind: key === 'succeeded' || key === 'transferred' ? key : 'failed', label: key });
      continue;
    }
    nodes.push({ id: key, kind: 'step', label: stepIdOf(key) });
    for (const transitions of transitionLists(state)) {
      let failureSide = false;
      // After an end or goto without criteria, which always fires, nothing else on its side can be taken.
      let shadowed = false;
      for (const transition of transitions) {
        const guard = actionName(transition.guard);
        const to = targetKey(transition, id, key);
        if (to === undefined) continue;
        const meta = actionMeta(transition.meta);
        if (guard === 'stepSucceeded') {
          if (!shadowed) add(key, to, STEP_WORDS.next, false);
          failureSide = true;
          shadowed = false;
        } else if (shadowed) {
          continue;
        } else if (meta) {
          const label = actionLabel(meta, transition, to, stepIdOf, isObject(state.states) ? state.states : {});
          if (label !== undefined) add(key, to, label, failureSide, transferOf(transition));
          shadowed = meta.outcome === 'fired' && meta.actionType !== 'retry' && paramOf(transition.guard, 'criteriaId') === undefined;
        } else if (transition.guard === undefined && to !== key) {
          // Unguarded moves inside a step (a retry's step run going on to its backoff) are the engine's.
          add(key, to, plannedFailureWord(transition) ?? STEP_WORDS.fail, true);
        }
        // Any other guard is the engine's (budgetSpent): not a step-level edge.
      }
    }
  }
  markUnreachable(nodes, edges);
  const chart: StepsChart = { id, nodes, edges };
  if (typeof root.description === 'string') chart.description = root.description;
  return chart;
}

/**
 * The label of an Arazzo action's transition, or undefined when the transition is the engine
 * stopping the workflow instead (limit reached, criteria that cannot be evaluated): `goto poll:
 * $statusCode == 202`, `retry ≤3 / 2s: $statusCode == 503`, `end`.
 */
function actionLabel(meta: ActionMeta, transition: TransitionConfig, to: string, stepIdOf: (key: string) => string, subStates: Config): string | undefined {
  if (meta.outcome === 'limitReached' || meta.outcome === 'criteriaBroken') return undefined;
  let head: string = meta.actionType;
  if (meta.outcome === 'failed') head = `${meta.actionType} (${plannedFailureWord(transition) ?? STEP_WORDS.fail})`;
  else if (meta.actionType === 'goto') head = `goto ${transferOf(transition) === undefined ? stepIdOf(to) : `workflow ${transferOf(transition)}`}`;
  else if (meta.actionType === 'retry') {
    const limit = paramOf(transition.guard, 'retryLimit');
    const delay = listOf(transition.actions).map((a) => paramOf(a, 'retryAfterSeconds')).find((d) => d !== undefined);
    head = `retry ≤${limit ?? '?'}${typeof delay === 'number' && delay > 0 ? ` / ${delay}s` : ''}${retryRuns(transition, subStates)}`;
  }
  const criteria = meta.criteria ?? [];
  if (criteria.length === 0) return head;
  const joined = criteria.join(' && ');
  return joined.length <= ONE_LINE ? `${head}: ${joined}` : `${head}:\n${criteria.join(' &&\n')}`;
}

/** A workflow's steps chart and calls (read-workflows.ts), read from its machine config. */
export function configSteps(config: object): WorkflowSteps {
  const calls = new Map<string, string>();
  const states = (config as { states?: Record<string, { states?: Record<string, { invoke?: { id?: unknown } }> }> }).states ?? {};
  for (const [key, state] of Object.entries(states)) {
    const id = state?.states?.[SUB_STATE.invoking]?.invoke?.id;
    if (typeof id === 'string') calls.set(key, calledKey(id));
  }
  return { chart: readSteps(config), calls };
}

/** The ordered transition lists of a step: its events' and eventless ones, its sub-states' included (a retrying step judges in `calling`). */
function transitionLists(state: Config): TransitionConfig[][] {
  const lists: TransitionConfig[][] = [];
  if (isObject(state.on)) for (const value of Object.values(state.on)) lists.push(transitionsOf(value));
  if (state.always !== undefined) lists.push(transitionsOf(state.always));
  if (isObject(state.states)) {
    for (const [key, child] of Object.entries(state.states)) {
      // The backoff only waits, then calls again: not a step-level edge.
      if (key !== SUB_STATE.backoff && isObject(child)) lists.push(...transitionLists(child));
    }
  }
  return lists;
}

/** The top-level state key a transition leads to (a sub-state counts as its step), or undefined. */
function targetKey(transition: TransitionConfig, machineId: string, source: string): string | undefined {
  const target = Array.isArray(transition.target) ? transition.target[0] : transition.target;
  if (typeof target !== 'string') return undefined;
  const absolute = `#${machineId}.`;
  if (target.startsWith(absolute)) return target.slice(absolute.length).split('.')[0];
  // Relative targets stay within the step (its sub-states).
  return target.startsWith('#') ? undefined : source;
}

/** The workflow a goto to another workflow transfers to: its `transferTo` action's parameter. */
function transferOf(transition: TransitionConfig): string | undefined {
  const to = listOf(transition.actions).map((a) => (actionName(a) === 'transferTo' ? paramOf(a, 'to') : undefined)).find((t) => typeof t === 'string');
  return typeof to === 'string' ? to : undefined;
}

/**
 * What a retry runs before it calls again, read from the sub-state it enters first:
 * `, running step refresh first` (`retryStep_<n>`), `, running workflow login first` (`retryCall_<n>`); else ''.
 */
function retryRuns(transition: TransitionConfig, subStates: Config): string {
  const target = Array.isArray(transition.target) ? transition.target[0] : transition.target;
  const subKey = typeof target === 'string' ? (target.split('.').at(-1) ?? '') : '';
  const sub = subStates[subKey];
  if (!isObject(sub) || !(subKey.startsWith(SUB_STATE.retryStep) || subKey.startsWith(SUB_STATE.retryCall))) return '';
  const invoked = isObject(sub.invoke) && typeof sub.invoke.id === 'string' ? calledKey(sub.invoke.id) : undefined;
  if (invoked !== undefined) return `, running workflow ${invoked} first`;
  const stepId = listOf(sub.entry).map((a) => (actionName(a) === 'startRun' ? paramOf(a, 'stepId') : undefined)).find((id) => typeof id === 'string');
  return typeof stepId === 'string' ? `, running step ${stepId} first` : '';
}

/**
 * The word for a transition that fails with a planned failure (StepPlan.fails, ActionPlan.fails):
 * its code in lower case; undefined for the engine's own failures.
 */
function plannedFailureWord(transition: TransitionConfig): string | undefined {
  const code = listOf(transition.actions)
    .map((a) => (actionName(a) === 'fail' ? paramOf(a, 'code') : undefined))
    .find((c) => typeof c === 'string');
  return typeof code === 'string' && !ENGINE_FAILURES.has(code) ? code.toLowerCase() : undefined;
}

/** The failure codes of the engine's own `fail` actions (machines/types.ts FailureCode): a step's own failure is drawn as `fail`. */
const ENGINE_FAILURES: ReadonlySet<string> = new Set(['STEP_FAILED', 'END_ACTION', 'RETRIES_EXHAUSTED', 'STEP_BUDGET_EXHAUSTED', 'DEPTH_EXCEEDED', 'CALL_FAILED', 'INTERNAL'] satisfies FailureCode[]);

function markUnreachable(nodes: StepsNode[], edges: StepsEdge[]): void {
  const reached = new Set(['start']);
  const queue = ['start'];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const edge of edges) {
      if (edge.from === at && !reached.has(edge.to)) {
        reached.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  for (const node of nodes) if (!reached.has(node.id)) node.unreachable = true;
}

function actionMeta(meta: unknown): ActionMeta | undefined {
  return isObject(meta) && typeof meta.actionType === 'string' && typeof meta.outcome === 'string' ? (meta as unknown as ActionMeta) : undefined;
}

function paramOf(ref: unknown, name: string): unknown {
  return isObject(ref) && isObject(ref.params) ? ref.params[name] : undefined;
}

function transitionsOf(value: unknown): TransitionConfig[] {
  return listOf(value).map((t) => (typeof t === 'string' ? { target: t } : isObject(t) ? (t as TransitionConfig) : {}));
}

function listOf(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isObject(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
