/**
 * The steps chart the `--inspect` live view colours: the SVG `tool arazzo graph --format svg`
 * draws, rendered once when the inspector starts (render-svg.ts lays it out on a worker thread,
 * so the run goes on meanwhile) and trimmed to an element the page can hold inline.
 */
import type { WorkflowsChart } from '../draw/read-workflows.js';
import type { StepsChart } from '../draw/steps-chart.js';
import { stepsToDot } from '../draw/steps-to-dot.js';
import { workflowsToDot } from '../draw/workflows-to-dot.js';
import { renderSvg, type RenderOptions } from '../output/render-svg.js';

/** The v2 chart of several workflows (read-workflows.ts) as an inline `<svg>` element. Throws as renderSvg does (too large, too slow, rejected). */
export async function renderLiveWorkflowsChart(chart: WorkflowsChart, options: RenderOptions = {}): Promise<string> {
  return inlineSvg(await renderSvg(workflowsToDot(chart), options));
}

/** A workflow's steps chart as an inline `<svg>` element. Throws as renderSvg does (too large, too slow, rejected). */
export async function renderLiveChart(chart: StepsChart, options: RenderOptions = {}): Promise<string> {
  return inlineSvg(await renderSvg(stepsToDot(chart), options));
}

/**
 * An SVG document as an element for an HTML page: the XML declaration, doctype and comments go
 * (comments hold the state keys unescaped for XML only). Labels stay as Graphviz escaped them.
 */
export function inlineSvg(svg: string): string {
  const start = svg.indexOf('<svg');
  if (start === -1) throw new Error('Graphviz returned no <svg> element');
  return svg.slice(start).replace(/<!--[\s\S]*?-->\n?/g, '').trim();
}
