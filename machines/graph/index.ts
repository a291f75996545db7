/** Pure exporters of a compiled workflow machine: Mermaid, Graphviz dot and the XState config as JSON. */
export { toMermaid } from './to-mermaid.js';
export { toDot } from './to-dot.js';
export { toStatelyJson } from './to-stately-json.js';
export { readChart, ChartReadError, type Chart, type ChartEdge, type ChartState } from './read-chart.js';
