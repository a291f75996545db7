import { initialLeaf, mergeParallel, readChart, stateAt, type ChartState } from './read-chart.js';

const INDENT = '  ';

/**
 * Draws a machine config (`machine.config`) as a Graphviz digraph: compound states as clusters
 * labelled with their key (and step id), an initial point per cluster, finals with a double
 * border, and every transition labelled. Output is deterministic (config order). Throws
 * ChartReadError on an unresolvable target.
 */
export function toDot(machineConfig: object): string {
  const chart = readChart(machineConfig);
  const lines = [`digraph ${quote(chart.id)} {`];
  if (chart.description) lines.push(`${INDENT}label=${quote(chart.description)};`, `${INDENT}labelloc=t;`);
  lines.push(
    `${INDENT}compound=true;`,
    `${INDENT}node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];`,
    `${INDENT}edge [fontname="Helvetica", fontsize=9];`,
  );
  writeStates(chart.root, 1, lines);
  // The machine's own transitions (the step budget spent) leave whichever state is active: drawn from a label that says so.
  if (chart.edges.some((edge) => edge.from.length === 0)) lines.push(`${INDENT}${quote(ANY_STATE)} [shape=plaintext];`);
  // Transitions between the same two states share one arrow, one label per line.
  for (const edge of mergeParallel(chart.edges)) {
    const to = stateAt(chart, edge.to);
    const attrs = [`label=${quote(edge.labels.join('\n'))}`];
    let head = edge.to;
    if (to && to.kind === 'compound') {
      head = initialLeaf(to).path;
      // Graphviz draws edges between nodes; `lhead` clips this one at the cluster's border, unless
      // the edge starts inside that cluster (a step going back to itself), where it cannot.
      if (!isInside(edge.from, to.path)) attrs.push(`lhead=${quote(clusterId(to.path))}`);
    }
    const tail = edge.from.length === 0 ? ANY_STATE : nodeId(edge.from);
    lines.push(`${INDENT}${quote(tail)} -> ${quote(nodeId(head))} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function writeStates(state: ChartState, depth: number, lines: string[]): void {
  const pad = INDENT.repeat(depth);
  if (state.initial !== undefined) {
    const start = initialId(state.path);
    const target = state.children.find((c) => c.key === state.initial);
    lines.push(`${pad}${quote(start)} [shape=point, width=0.12, label=""];`);
    if (target) {
      const attrs = target.kind === 'compound' ? ` [lhead=${quote(clusterId(target.path))}]` : '';
      lines.push(`${pad}${quote(start)} -> ${quote(nodeId(initialLeaf(target).path))}${attrs};`);
    }
  }
  for (const child of state.children) {
    if (child.kind === 'compound') {
      lines.push(`${pad}subgraph ${quote(clusterId(child.path))} {`);
      lines.push(`${pad}${INDENT}label=${quote(titleOf(child))};`, `${pad}${INDENT}style=rounded;`);
      writeStates(child, depth + 1, lines);
      lines.push(`${pad}}`);
      continue;
    }
    const label = [titleOf(child), ...child.activities].join('\n');
    const attrs = [`label=${quote(label)}`];
    if (child.kind === 'final') attrs.push('peripheries=2');
    // States no transition enters (the steps after one v1 cannot run, unless a goto leads there) are drawn dashed.
    if (child.unreachable) attrs.push('style="rounded,dashed"');
    lines.push(`${pad}${quote(nodeId(child.path))} [${attrs.join(', ')}];`);
  }
}

/** A state's key, with the step id in parentheses when the key changed it. */
function titleOf(state: ChartState): string {
  return state.stepId !== undefined && !state.key.endsWith(`_${state.stepId}`) ? `${state.key} (${state.stepId})` : state.key;
}

function isInside(path: readonly string[], ancestor: readonly string[]): boolean {
  return ancestor.every((key, i) => path[i] === key);
}

/** Where the machine's own transitions start: a label, not a state (no state key holds a space or parentheses). */
const ANY_STATE = '(any state)';

/** Node ids are the dotted state paths; keys never hold dots, so they are unique. */
function nodeId(path: readonly string[]): string {
  return path.join('.');
}

function initialId(path: readonly string[]): string {
  return path.length === 0 ? '[*]' : `${nodeId(path)}.[*]`;
}

function clusterId(path: readonly string[]): string {
  return `cluster_${nodeId(path)}`;
}

/** A DOT double-quoted string: backslashes and quotes escaped, newlines as `\n`. */
export function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}
