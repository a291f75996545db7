import type { StepsCluster, WorkflowsChart } from './read-workflows.js';
import { escapeText, isFinal, stepsNodeShape } from './steps-to-mermaid.js';

const INDENT = '  ';
/** Failure edges (failure actions, "fail") are drawn in this colour, success edges in the theme's. */
const FAILURE_COLOUR = '#b22222';

/**
 * Draws a run's workflows (read-workflows.ts) as one Mermaid `flowchart TB`: the selected
 * workflow as stepsToMermaid draws it, each workflow it calls in a subgraph inside the calling
 * step's subgraph, each workflow it transfers to in a subgraph beside it; `calls` edges are dotted
 * and lead to the called workflow's `start`. Deterministic.
 */
export function workflowsToMermaid(chart: WorkflowsChart): string {
  const lines = ['flowchart TB'];
  if (chart.description) lines.push(`${INDENT}%% ${chart.description.replace(/\s*\n\s*/g, ' ')}`);
  lines.push(...clusterLines(chart.root, INDENT));
  const failureLinks: number[] = [];
  chart.edges.forEach((edge, i) => {
    const label = edge.labels.filter((l) => l !== '').map(escapeText).join('<br>');
    const arrow = edge.kind === 'call' ? '-.->' : '-->';
    lines.push(`${INDENT}${mermaidId(edge.from)} ${arrow}${label === '' ? '' : `|"${label}"|`} ${mermaidId(edge.to)}`);
    if (edge.failure) failureLinks.push(i);
  });
  if (failureLinks.length > 0) lines.push(`${INDENT}linkStyle ${failureLinks.join(',')} stroke:${FAILURE_COLOUR},color:${FAILURE_COLOUR}`);
  const nodes = allNodes(chart.root);
  lines.push(`${INDENT}classDef final stroke-width:3px`, `${INDENT}class ${nodes.filter(isFinal).map((n) => mermaidId(n.id)).join(',')} final`);
  const unreachable = nodes.filter((n) => n.unreachable).map((n) => mermaidId(n.id));
  if (unreachable.length > 0) lines.push(`${INDENT}classDef unreachable stroke-dasharray:4`, `${INDENT}class ${unreachable.join(',')} unreachable`);
  return `${lines.join('\n')}\n`;
}

/** A Mermaid id for a node or cluster id: `child/s0_fetch` -> `child__s0_fetch` (Mermaid ids are plain words). */
function mermaidId(id: string): string {
  return id.replaceAll('/', '__').replace(/[^A-Za-z0-9_]/g, '_');
}

function clusterLines(cluster: StepsCluster, indent: string): string[] {
  const inner = cluster.id === 'root' ? indent : indent + INDENT;
  const body = [...cluster.nodes.map((n) => `${inner}${mermaidId(n.id)}${stepsNodeShape(n)}`), ...cluster.clusters.flatMap((c) => clusterLines(c, inner))];
  if (cluster.id === 'root') return body;
  return [`${indent}subgraph ${mermaidId(cluster.id)} ["${escapeText(cluster.label)}"]`, ...body, `${indent}end`];
}

function allNodes(cluster: StepsCluster): StepsCluster['nodes'] {
  return [...cluster.nodes, ...cluster.clusters.flatMap(allNodes)];
}
