import type { StepsCluster, WorkflowsChart } from './read-workflows.js';
import { stepsEdgeLine, stepsNodeLine } from './steps-to-dot.js';
import { quote } from './to-dot.js';

const INDENT = '  ';
/** Frames: a called workflow's solid and grey, a nested step's (the step and what it calls) dashed. */
const FRAME_COLOUR = '#888888';

/**
 * Draws a run's workflows (read-workflows.ts) as one top-to-bottom Graphviz digraph: the
 * selected workflow as stepsToDot draws it, each workflow it calls in a cluster inside the
 * calling step's cluster, each workflow it transfers to in a cluster beside it; `calls` edges
 * are dashed, and `calls` and transfer edges end at the cluster's border. Deterministic.
 */
export function workflowsToDot(chart: WorkflowsChart): string {
  const lines = [`digraph ${quote(chart.id)} {`];
  if (chart.description) lines.push(`${INDENT}label=${quote(chart.description)};`, `${INDENT}labelloc=t;`);
  lines.push(
    `${INDENT}rankdir=TB;`,
    `${INDENT}pad=0.2;`,
    // Edges may end at a cluster's border (lhead).
    `${INDENT}compound=true;`,
    `${INDENT}node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];`,
    `${INDENT}edge [fontname="Helvetica", fontsize=9];`,
  );
  lines.push(...clusterLines(chart.root, INDENT));
  const finals = chart.root.nodes.filter((n) => n.kind === 'succeeded' || n.kind === 'failed' || n.kind === 'transferred').map((n) => quote(n.id));
  if (finals.length > 0) lines.push(`${INDENT}{ rank=sink; ${finals.join('; ')}; }`);
  for (const edge of chart.edges) {
    const extra: string[] = [];
    if (edge.kind === 'call') extra.push('style=dashed');
    if (edge.into !== undefined) extra.push(`lhead=${quote(edge.into)}`);
    lines.push(`${INDENT}${stepsEdgeLine(edge, extra, edge.id)}`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** A cluster's statements: the root's nodes and clusters as they are, any other inside `subgraph cluster_…`. */
function clusterLines(cluster: StepsCluster, indent: string): string[] {
  const inner = cluster.id === 'root' ? indent : indent + INDENT;
  const body = [...cluster.nodes.map((n) => `${inner}${stepsNodeLine(n)}`), ...cluster.clusters.flatMap((c) => clusterLines(c, inner))];
  if (cluster.id === 'root') return body;
  const style = cluster.kind === 'call' ? 'dashed,rounded' : 'rounded';
  return [
    `${indent}subgraph ${quote(cluster.id)} {`,
    `${inner}label=${quote(cluster.label)};`,
    `${inner}style=${quote(style)};`,
    `${inner}color=${quote(FRAME_COLOUR)};`,
    `${inner}fontname="Helvetica";`,
    `${inner}fontsize=10;`,
    `${inner}id=${quote(cluster.id)};`,
    ...body,
    `${indent}}`,
  ];
}
