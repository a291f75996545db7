/**
 * The steps-level chart of a workflow, built from its plan: one node per step plus `start`,
 * `succeeded` and `failed` (and `transferred` when a goto can leave for another workflow), and only
 * the edges a reader of the Arazzo document thinks in: the Arazzo actions, "next step" for a success
 * no action took, and "fail" for a failure no action took. The engine's own transitions (budget
 * spent, dry run, a retry limit reached, criteria that cannot be evaluated, the backoff timer, a
 * call too deep) are not drawn. Labels are made from the plan (action type, target, limit, delay,
 * criteria as written, planned failure code) and a few fixed words.
 */
import { launchKey, stateOrder, stepKey } from '../../machines/state-keys.js';
import type { ActionPlan, FailureCode, StepPlan, WorkflowPlan } from '../../machines/types.js';

/** The fixed words of the steps level; everything else in a label is the document's. */
export const STEP_WORDS = { start: 'start', next: 'next step', fail: 'fail', launch: '(launch)', join: '(join)', inFlight: 'in flight' } as const;

export interface StepsNode {
  /** The state key (`s2_requestAdoption`, `succeeded`), or `start`. */
  id: string;
  kind: 'start' | 'step' | 'succeeded' | 'failed' | 'transferred';
  /** The step id, or the final's key. */
  label: string;
  /** No edge leads here (e.g. a step after one that fails with a planned failure, unless a goto leads there). */
  unreachable?: true;
}

/** Edges between the same two nodes on the same side share one arrow, one label per entry. */
export interface StepsEdge {
  from: string;
  to: string;
  labels: string[];
  /** Taken when the step failed (failure actions, "fail"); drawn in another colour. */
  failure: boolean;
  /** A goto to another workflow: the workflow's key; `to` is then the `transferred` final. */
  transfer?: string;
}

export interface StepsChart {
  id: string;
  description?: string;
  nodes: StepsNode[];
  edges: StepsEdge[];
}

/** The machine's id and the finals' keys, as compile-workflow.ts names them (the live view matches states by them). */
const MACHINE_ID = 'workflow';
const SUCCEEDED = 'succeeded';
const FAILED = 'failed';
const TRANSFERRED = 'transferred';

/** Criteria longer than this go one per line under the action, so labels stay narrow. */
const ONE_LINE = 40;

/** The failure codes of the engine's own failures (machines/types.ts FailureCode): a step's own failure is drawn as `fail`. */
const ENGINE_FAILURES: ReadonlySet<string> = new Set(['STEP_FAILED', 'END_ACTION', 'RETRIES_EXHAUSTED', 'STEP_BUDGET_EXHAUSTED', 'DEPTH_EXCEEDED', 'CALL_FAILED', 'INTERNAL'] satisfies FailureCode[]);

/** The steps-level chart of `plan`: nodes in document order, then the finals; edges step by step, in chain order. */
export function stepsChart(plan: WorkflowPlan): StepsChart {
  const keys = plan.steps.map((step, index) => stepKey(index, step.stepId));
  // Arazzo 1.1 in-flight steps: launched at their place, their own node (the join) before the first step that needs them.
  const order = stateOrder(plan);
  const orderKey = (entry: { index: number; launch?: true } | undefined) => (entry === undefined ? SUCCEEDED : entry.launch ? launchKey(entry.index, plan.steps[entry.index]!.stepId) : keys[entry.index]!);
  const nextOf = new Map(order.flatMap((entry, position) => (entry.launch ? [] : [[entry.index, orderKey(order[position + 1])] as const])));
  const nodes: StepsNode[] = [{ id: 'start', kind: 'start', label: STEP_WORDS.start }];
  const edges: StepsEdge[] = [];
  const add = (from: string, to: string, label: string, failure: boolean, transfer?: string): void => {
    const known = edges.find((e) => e.from === from && e.to === to && e.failure === failure && e.transfer === transfer);
    if (known) known.labels.push(label);
    else edges.push({ from, to, labels: [label], failure, ...(transfer === undefined ? {} : { transfer }) });
  };
  add('start', orderKey(order[0]), '', false);

  order.forEach((entry, position) => {
    const index = entry.index;
    const step = plan.steps[index]!;
    if (entry.launch) {
      const key = orderKey(entry);
      nodes.push({ id: key, kind: 'step', label: `${step.stepId} ${STEP_WORDS.launch}` });
      add(key, orderKey(order[position + 1]), STEP_WORDS.inFlight, false);
      return;
    }
    const key = keys[index]!;
    nodes.push({ id: key, kind: 'step', label: step.inFlight ? `${step.stepId} ${STEP_WORDS.join}` : step.stepId });
    if (step.fails) {
      // The step fails when reached; none of its chains apply.
      add(key, FAILED, plannedFailureWord(step.fails.code), true);
      return;
    }
    // After an end or goto without criteria, which always fires, nothing else on its side can be taken.
    let shadowed = false;
    for (const action of step.onSuccess) {
      if (shadowed) continue;
      const to = actionTarget(plan, keys, action, SUCCEEDED, key);
      add(key, to, actionLabel(plan, step, action), false, transferOf(action));
      shadowed = alwaysFires(action);
    }
    if (!shadowed) add(key, nextOf.get(index) ?? SUCCEEDED, STEP_WORDS.next, false);
    shadowed = false;
    for (const action of step.onFailure) {
      if (shadowed) continue;
      const to = actionTarget(plan, keys, action, FAILED, key);
      add(key, to, actionLabel(plan, step, action), true, transferOf(action));
      shadowed = alwaysFires(action);
    }
    if (!shadowed) add(key, FAILED, STEP_WORDS.fail, true);
  });

  nodes.push({ id: SUCCEEDED, kind: 'succeeded', label: SUCCEEDED }, { id: FAILED, kind: 'failed', label: FAILED });
  if (transfers(plan)) nodes.push({ id: TRANSFERRED, kind: 'transferred', label: TRANSFERRED });
  markUnreachable(nodes, edges);
  const chart: StepsChart = { id: MACHINE_ID, nodes, edges };
  chart.description = `Arazzo workflow ${plan.workflowId}`;
  return chart;
}

/** The nested steps of a plan that call a workflow: the step's node id (with `prefix`) → the called workflow's key. */
export function stepsCalls(plan: WorkflowPlan, prefix = ''): Map<string, string> {
  const calls = new Map<string, string>();
  plan.steps.forEach((step, index) => {
    // A step that fails when reached makes no call.
    if (step.call && !step.fails) calls.set(`${prefix}${stepKey(index, step.stepId)}`, step.call.workflow);
  });
  return calls;
}

/** An end or goto without criteria: it always fires, so nothing after it on its side is taken. */
function alwaysFires(action: ActionPlan): boolean {
  return !action.fails && action.type !== 'retry' && action.criteriaId === undefined;
}

/** Where an action's edge leads: a planned failure to `failed`, an end to `end`, a goto to its step (or `transferred`), a retry back to its own step. */
function actionTarget(plan: WorkflowPlan, keys: string[], action: ActionPlan, end: string, self: string): string {
  if (action.fails) return FAILED;
  if (action.type === 'end') return end;
  if (action.type === 'retry') return self;
  if (action.workflow !== undefined) return TRANSFERRED;
  const target = action.targetIndex === undefined ? undefined : keys[action.targetIndex];
  if (target === undefined) throw new Error(`goto action "${action.name}" has no target step`);
  return target;
}

/** The workflow a goto to another workflow transfers to. */
function transferOf(action: ActionPlan): string | undefined {
  return !action.fails && action.type === 'goto' ? action.workflow : undefined;
}

/**
 * The label of an Arazzo action's edge: `goto poll: $statusCode == 202`, `retry ≤3 / 2s:
 * $statusCode == 503`, `end`, `goto (unsupported)` for one that fails with a planned failure.
 */
function actionLabel(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): string {
  let head: string = action.type;
  if (action.fails) head = `${action.type} (${plannedFailureWord(action.fails.code)})`;
  else if (action.type === 'goto') head = `goto ${action.workflow === undefined ? plan.steps[action.targetIndex!]!.stepId : `workflow ${action.workflow}`}`;
  else if (action.type === 'retry') head = `retry ≤${action.retryLimit}${action.retryAfterSeconds > 0 ? ` / ${action.retryAfterSeconds}s` : ''}${retryRuns(plan, action)}`;
  const criteria = action.criteriaText ?? [];
  if (criteria.length === 0) return head;
  const joined = criteria.join(' && ');
  return joined.length <= ONE_LINE ? `${head}: ${joined}` : `${head}:\n${criteria.join(' &&\n')}`;
}

/**
 * What a retry runs before it calls again: `, running step refresh first`, `, running workflow
 * login first`; else ''. A nested step run first is not named (its call is drawn by its own step).
 */
function retryRuns(plan: WorkflowPlan, action: ActionPlan): string {
  if (action.targetIndex !== undefined) {
    const target = plan.steps[action.targetIndex];
    return target === undefined || target.call ? '' : `, running step ${target.stepId} first`;
  }
  return action.workflow === undefined ? '' : `, running workflow ${action.workflow} first`;
}

/** The word for a planned failure (StepPlan.fails, ActionPlan.fails): its code in lower case; an engine code reads `fail`. */
function plannedFailureWord(code: string): string {
  return ENGINE_FAILURES.has(code) ? STEP_WORDS.fail : code.toLowerCase();
}

/** Whether a goto of the workflow can transfer to another workflow (the machine then has a `transferred` final). */
function transfers(plan: WorkflowPlan): boolean {
  return plan.steps.some((step) => [...step.onSuccess, ...step.onFailure].some((action) => action.type === 'goto' && action.workflow !== undefined && !action.fails));
}

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
