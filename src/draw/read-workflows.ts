/**
 * The steps-level chart of a run that nests or transfers: the selected
 * workflow's steps chart (steps-chart.ts), and the chart of every workflow it can call or transfer
 * to, each drawn once, in a cluster. The first nested step that calls a workflow holds the called
 * workflow's cluster (together they form the step's cluster); any other call site points into it.
 * A goto to a workflow points to the target workflow's cluster, drawn beside the workflow that
 * transfers. A workflow already drawn (recursion, a second call) is only pointed to, so a cycle of
 * calls ends.
 */
import type { WorkflowPlan } from '../../machines/types.js';
import { stepsCalls, stepsChart, type StepsChart, type StepsEdge, type StepsNode } from './steps-chart.js';
import { stepsEdgeId } from './steps-to-dot.js';

/** A frame around nodes: a workflow's steps (`workflow`), or a nested step with the workflow it calls (`call`). */
export interface StepsCluster {
  /** `cluster_wf_<key>`, `cluster_call_<node id>`: Graphviz treats `cluster_*` subgraphs as frames. */
  id: string;
  kind: 'workflow' | 'call';
  label: string;
  nodes: StepsNode[];
  clusters: StepsCluster[];
}

/** An edge of the chart; `call` and `transfer` edges point into the cluster `into` (Graphviz `lhead`). */
export interface WorkflowsEdge extends StepsEdge {
  /** The SVG id: stepsEdgeId of the workflow's own edge, `call-<step node>` for a call. */
  id: string;
  kind: 'step' | 'call' | 'transfer';
  into?: string;
}

export interface WorkflowsChart {
  id: string;
  description?: string;
  /** The selected workflow's nodes (unframed) and the clusters of the workflows it reaches. */
  root: StepsCluster;
  edges: WorkflowsEdge[];
  /**
   * Each drawn workflow's steps chart by key, node ids prefixed as drawn (`child/s0_fetch`; the
   * selected workflow's unprefixed): the live view follows each workflow's actors on it.
   */
  charts: Map<string, StepsChart>;
}

/** What the chart needs of one workflow: its steps chart, and the workflow each of its nested steps calls (step node id → workflow key). */
export interface WorkflowSteps {
  chart: StepsChart;
  calls: ReadonlyMap<string, string>;
}

/** A workflow's steps chart and calls, from its plan. */
export function workflowSteps(plan: WorkflowPlan): WorkflowSteps {
  return { chart: stepsChart(plan), calls: stepsCalls(plan) };
}

/** Words of the chart besides the document's. */
export const CALL_WORDS = { calls: 'calls', workflow: 'workflow' } as const;

/**
 * Joins the steps charts of a run's workflows (by key) into one chart, starting at `entry`.
 * A workflow missing from `workflows` is pointed to but not drawn.
 */
export function readWorkflows(entry: string, workflows: ReadonlyMap<string, WorkflowSteps>): WorkflowsChart {
  const charts = new Map<string, StepsChart>();
  const edges: WorkflowsEdge[] = [];
  /** Where each drawn workflow starts, and its cluster (none for the selected workflow). */
  const placed = new Map<string, { start: string; cluster?: string }>();
  const entryChart = workflows.get(entry)?.chart ?? { id: entry, nodes: [], edges: [] };
  const root: StepsCluster = { id: 'root', kind: 'workflow', label: entry, nodes: [], clusters: [] };
  const queue: Array<{ key: string; chart: StepsChart; frame: StepsCluster; beside: StepsCluster }> = [];

  const place = (key: string, beside: StepsCluster): { start: string; cluster?: string } | undefined => {
    const known = placed.get(key);
    if (known !== undefined) return known;
    const workflow = workflows.get(key);
    if (workflow === undefined) return undefined;
    const chart = prefixed(workflow.chart, `${key}/`);
    const frame: StepsCluster = { id: `cluster_wf_${key}`, kind: 'workflow', label: `${CALL_WORDS.workflow} ${key}`, nodes: [], clusters: [] };
    beside.clusters.push(frame);
    const where = { start: chart.nodes[0]?.id ?? `${key}/start`, cluster: frame.id };
    placed.set(key, where);
    queue.push({ key, chart, frame, beside });
    return where;
  };

  placed.set(entry, { start: 'start' });
  queue.push({ key: entry, chart: entryChart, frame: root, beside: root });
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const { key, chart, frame, beside } = item;
    charts.set(key, chart);
    const prefix = key === entry ? '' : `${key}/`;
    const calls = new Map([...(workflows.get(key)?.calls ?? [])].map(([from, callee]) => [`${prefix}${from}`, callee]));
    const transfersLeft = chart.edges.some((e) => e.transfer !== undefined && !workflows.has(e.transfer));
    for (const node of chart.nodes) {
      // Every transfer is drawn as an edge to its workflow: the `transferred` final stays only for one not drawn.
      if (node.kind === 'transferred' && !transfersLeft) continue;
      const callee = calls.get(node.id);
      if (callee === undefined || placed.has(callee) || !workflows.has(callee)) {
        frame.nodes.push(node);
        continue;
      }
      const holder: StepsCluster = { id: `cluster_call_${node.id}`, kind: 'call', label: `${node.label} → ${CALL_WORDS.workflow} ${callee}`, nodes: [node], clusters: [] };
      frame.clusters.push(holder);
      place(callee, holder);
    }
    for (const edge of chart.edges) {
      const target = edge.transfer === undefined ? undefined : place(edge.transfer, beside);
      if (target === undefined) edges.push({ ...edge, id: stepsEdgeId(edge), kind: 'step' });
      else edges.push({ ...edge, to: target.start, id: stepsEdgeId(edge), kind: 'transfer', ...(target.cluster === undefined ? {} : { into: target.cluster }) });
    }
    for (const [from, callee] of calls) {
      const target = placed.get(callee);
      if (target === undefined) continue;
      edges.push({ from, to: target.start, labels: [CALL_WORDS.calls], failure: false, id: `call-${from}`, kind: 'call', ...(target.cluster === undefined ? {} : { into: target.cluster }) });
    }
  }
  const chart: WorkflowsChart = { id: entryChart.id, root, edges, charts };
  if (entryChart.description !== undefined) chart.description = entryChart.description;
  return chart;
}

/** The chart with every node id prefixed (`child/s0_fetch`), so that the workflows' nodes stay apart. */
function prefixed(chart: StepsChart, prefix: string): StepsChart {
  return {
    ...chart,
    nodes: chart.nodes.map((n) => ({ ...n, id: `${prefix}${n.id}` })),
    edges: chart.edges.map((e) => ({ ...e, from: `${prefix}${e.from}`, to: `${prefix}${e.to}`, labels: [...e.labels] })),
  };
}

/** Whether a drawing needs readWorkflows: the workflow calls or transfers to another (else the one-workflow chart is the same). */
export function callsOrTransfers(workflow: WorkflowSteps): boolean {
  return workflow.calls.size > 0 || workflow.chart.edges.some((e) => e.transfer !== undefined);
}
