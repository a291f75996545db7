import type { StepsChart, StepsNode } from './steps-chart.js';

const INDENT = '  ';
/** Failure edges (failure actions, "fail") are drawn in this colour, success edges in the theme's. */
const FAILURE_COLOUR = '#b22222';

/**
 * Draws a workflow's steps chart (steps-chart.ts) as a Mermaid `flowchart TB`: the steps in
 * document order, `start` above them, the finals below. Output is deterministic (chart order).
 */
export function stepsToMermaid(chart: StepsChart): string {
  const lines = ['flowchart TB'];
  if (chart.description) lines.push(`${INDENT}%% ${chart.description.replace(/\s*\n\s*/g, ' ')}`);
  for (const node of chart.nodes) lines.push(`${INDENT}${node.id}${stepsNodeShape(node)}`);
  const failureLinks: number[] = [];
  chart.edges.forEach((edge, i) => {
    const label = edge.labels.filter((l) => l !== '').map(escapeText).join('<br>');
    lines.push(`${INDENT}${edge.from} -->${label === '' ? '' : `|"${label}"|`} ${edge.to}`);
    if (edge.failure) failureLinks.push(i);
  });
  if (failureLinks.length > 0) lines.push(`${INDENT}linkStyle ${failureLinks.join(',')} stroke:${FAILURE_COLOUR},color:${FAILURE_COLOUR}`);
  lines.push(`${INDENT}classDef final stroke-width:3px`, `${INDENT}class ${chart.nodes.filter(isFinal).map((n) => n.id).join(',')} final`);
  const unreachable = chart.nodes.filter((n) => n.unreachable).map((n) => n.id);
  if (unreachable.length > 0) {
    // Nodes no edge enters (the steps after one v1 cannot run, unless a goto leads there) are drawn dashed.
    lines.push(`${INDENT}classDef unreachable stroke-dasharray:4`, `${INDENT}class ${unreachable.join(',')} unreachable`);
  }
  return `${lines.join('\n')}\n`;
}

/** `start` a circle, a step a rounded box, a final a stadium; labels quoted. */
export function stepsNodeShape(node: StepsNode): string {
  const label = `"${escapeText(node.label)}"`;
  if (node.kind === 'start') return `((${label}))`;
  if (isFinal(node)) return `([${label}])`;
  return `(${label})`;
}

export function isFinal(node: StepsNode): boolean {
  return node.kind === 'succeeded' || node.kind === 'failed' || node.kind === 'transferred';
}

/** Inside a quoted Mermaid label: quotes and `;<>|` as entity codes, line breaks as `<br>`. */
export function escapeText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/[";<>|]/g, (c) => `#${c.charCodeAt(0)};`))
    .join('<br>');
}
