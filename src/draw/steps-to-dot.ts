import type { StepsChart, StepsEdge, StepsNode } from './steps-chart.js';
import { quote } from './to-dot.js';

const INDENT = '  ';
/** Failure edges (failure actions, "fail") are drawn in this colour, success edges in black. */
const FAILURE_COLOUR = '#b22222';

/**
 * Draws a workflow's steps chart (steps-chart.ts) as a top-to-bottom Graphviz digraph: the steps
 * in document order, `start` above them, the finals below. Output is deterministic (chart order).
 */
export function stepsToDot(chart: StepsChart): string {
  const lines = [`digraph ${quote(chart.id)} {`];
  if (chart.description) lines.push(`${INDENT}label=${quote(chart.description)};`, `${INDENT}labelloc=t;`);
  lines.push(
    `${INDENT}rankdir=TB;`,
    // A little margin: self-loop labels sit at the right edge, and viewers' fonts can be wider than Graphviz's metrics.
    `${INDENT}pad=0.2;`,
    `${INDENT}node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];`,
    `${INDENT}edge [fontname="Helvetica", fontsize=9];`,
  );
  for (const node of chart.nodes) lines.push(`${INDENT}${stepsNodeLine(node)}`);
  // The finals share the bottom rank, under every step.
  const finals = chart.nodes.filter((n) => n.kind === 'succeeded' || n.kind === 'failed' || n.kind === 'transferred').map((n) => quote(n.id));
  if (finals.length > 0) lines.push(`${INDENT}{ rank=sink; ${finals.join('; ')}; }`);
  for (const edge of chart.edges) lines.push(`${INDENT}${stepsEdgeLine(edge)}`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** One node of the steps chart as a dot statement (`"s0_a" [label="a", id="node-s0_a"];`). */
export function stepsNodeLine(node: StepsNode): string {
  return `${quote(node.id)} [${nodeAttributes(node).join(', ')}];`;
}

/** One edge of the steps chart as a dot statement; `extra` attributes go before its id (`id` replaces stepsEdgeId's). */
export function stepsEdgeLine(edge: StepsEdge, extra: string[] = [], id = stepsEdgeId(edge)): string {
  const attrs: string[] = [];
  let label = edge.labels.filter((l) => l !== '').join('\n');
  // Graphviz centres a self-loop's label beside the loop: a margin keeps a wider font off the arrow.
  if (edge.from === edge.to) label = label.replace(/^/gm, '  ');
  if (label !== '') attrs.push(`label=${quote(label)}`);
  if (edge.failure) attrs.push(`color=${quote(FAILURE_COLOUR)}`, `fontcolor=${quote(FAILURE_COLOUR)}`);
  attrs.push(...extra, `id=${quote(id)}`);
  return `${quote(edge.from)} -> ${quote(edge.to)} [${attrs.join(', ')}];`;
}

/** The SVG id of a node of the steps chart: `node-<state key>` (`node-s2_requestAdoption`, `node-failed`); the live view finds nodes by it. */
export function stepsNodeId(key: string): string {
  return `node-${key}`;
}

/**
 * The SVG id of an edge of the steps chart: `edge-<from>-<to>`, with `-fail` for the failure side
 * (a step can reach the same target from both sides). State keys hold no `-`, so ids are unique.
 */
export function stepsEdgeId(edge: Pick<StepsEdge, 'from' | 'to' | 'failure' | 'transfer'>): string {
  return `edge-${edge.from}-${edge.to}${edge.transfer === undefined ? '' : `-${edge.transfer}`}${edge.failure ? '-fail' : ''}`;
}

function nodeAttributes(node: StepsNode): string[] {
  const attrs = [`label=${quote(node.label)}`];
  if (node.kind === 'start') attrs.push('shape=circle', 'fontsize=9', 'width=0.4', 'fixedsize=true');
  if (node.kind === 'succeeded' || node.kind === 'failed' || node.kind === 'transferred') attrs.push('peripheries=2');
  if (node.kind === 'failed') attrs.push(`color=${quote(FAILURE_COLOUR)}`);
  if (node.unreachable) attrs.push('style="rounded,dashed"');
  attrs.push(`id=${quote(stepsNodeId(node.id))}`);
  return attrs;
}
