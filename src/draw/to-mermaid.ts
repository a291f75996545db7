import { initialLeaf, mergeParallel, readChart, stateAt, type Chart, type ChartEdge, type ChartState } from './read-chart.js';

const INDENT = '  ';

/**
 * Draws a machine config (`machine.config`) as a Mermaid `stateDiagram-v2`: compound states as
 * composite states, sub-states with their `entry`/`invoke` activities, finals, and every
 * transition labelled. Output is deterministic (config order). Throws ChartReadError on an
 * unresolvable target.
 */
export function toMermaid(machineConfig: object): string {
  const chart = readChart(machineConfig);
  const lines = ['stateDiagram-v2'];
  if (chart.description) lines.push(`${INDENT}%% ${oneLine(chart.description)}`);
  writeBody(chart, chart.root, 1, lines, groupEdges(chart));
  const unreachable = leaves(chart.root).filter((state) => state.unreachable).map((state) => nodeId(state.path));
  if (unreachable.length > 0) {
    // States no transition enters (the steps after one v1 cannot run, unless a goto leads there) are drawn dashed.
    lines.push(`${INDENT}classDef unreachable stroke-dasharray:4`, `${INDENT}class ${unreachable.join(',')} unreachable`);
  }
  return `${lines.join('\n')}\n`;
}

/** Edges grouped by the compound state that holds both ends, so each is drawn inside that block. */
function groupEdges(chart: Chart): Map<string, Array<ChartEdge & { labels: string[] }>> {
  const groups = new Map<string, Array<ChartEdge & { labels: string[] }>>();
  const landed = chart.edges.map((edge) => {
    const to = stateAt(chart, edge.to);
    // A transition into a compound state lands in its initial leaf; drawing it there keeps
    // renderers from having to route an edge into a cluster that may contain its source.
    return { ...edge, to: to ? initialLeaf(to).path : edge.to };
  });
  // Transitions between the same two states share one arrow, one label per line.
  for (const drawn of mergeParallel(landed)) {
    const owner = commonPrefix(drawn.from.slice(0, -1), drawn.to.slice(0, -1)).join('.');
    const list = groups.get(owner) ?? [];
    list.push(drawn);
    groups.set(owner, list);
  }
  return groups;
}

function writeBody(chart: Chart, state: ChartState, depth: number, lines: string[], edges: Map<string, Array<ChartEdge & { labels: string[] }>>): void {
  const pad = INDENT.repeat(depth);
  if (state.initial !== undefined) lines.push(`${pad}[*] --> ${nodeId([...state.path, state.initial])}`);
  for (const child of state.children) {
    const id = nodeId(child.path);
    if (child.kind === 'compound') {
      lines.push(`${pad}state ${declaredName(child, id)} {`);
      writeBody(chart, child, depth + 1, lines, edges);
      lines.push(`${pad}}`);
      continue;
    }
    lines.push(`${pad}state ${declaredName(child, id)}`);
    for (const activity of child.activities) lines.push(`${pad}${id} : ${escapeText(activity)}`);
    if (child.kind === 'final') lines.push(`${pad}${id} --> [*]`);
  }
  for (const edge of edges.get(state.path.join('.')) ?? []) {
    const label = edge.labels.map(escapeText).join('<br>');
    // The machine's own transitions (the step budget spent) leave whichever state is active: a note on their target.
    if (edge.from.length === 0) lines.push(`${pad}note left of ${nodeId(edge.to)} : from any state, ${label}`);
    else lines.push(`${pad}${nodeId(edge.from)} --> ${nodeId(edge.to)} : ${label}`);
  }
}

/**
 * `state <id>` when the key reads well, `state "<label>" as <id>` otherwise. A state with
 * activities always gets its label: Mermaid would otherwise draw it as its `entry / …` line alone.
 */
function declaredName(state: ChartState, id: string): string {
  let label = state.key;
  if (state.stepId !== undefined && !state.key.endsWith(`_${state.stepId}`)) label = `${state.key} (${state.stepId})`;
  const labelled = label !== id || (state.kind !== 'compound' && state.activities.length > 0);
  return labelled ? `"${escapeText(label).replace(/"/g, '#quot;')}" as ${id}` : id;
}

/**
 * Mermaid ids cannot hold dots, so a path is joined with `__`. Step keys (`s<index>_<id>`) start
 * with their unique index, so no joined path can equal another state's id.
 */
function nodeId(path: readonly string[]): string {
  return path.join('__');
}

/** Mermaid reads `;` as a statement end and `<`/`>` as HTML; entity codes keep them as text. */
function escapeText(text: string): string {
  return oneLine(text).replace(/[;<>]/g, (c) => `#${c.charCodeAt(0)};`);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function leaves(state: ChartState): ChartState[] {
  return state.kind === 'compound' ? state.children.flatMap(leaves) : [state];
}

function commonPrefix(a: readonly string[], b: readonly string[]): string[] {
  const prefix: string[] = [];
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) prefix.push(a[i]!);
  return prefix;
}
