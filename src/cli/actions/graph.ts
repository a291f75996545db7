import type { WorkflowPlan } from '../../../machines/types.js';
import type { ArazzoDocument, Workflow } from '../../arazzo/model.js';
import type { WorkflowsChart } from '../../draw/read-workflows.js';
import { stepsChart } from '../../draw/steps-chart.js';
import type { CriteriaOptions } from '../../plan/evaluate-criteria.js';
import { prepareDocument } from '../../plan/prepare-document.js';
import { ToolError } from '../../errors/tool-error.js';
import { EXIT } from '../exit-codes.js';
import { readProjectSettings, silencer } from '../project-settings.js';
import { resolveRunner } from '../runner-flag.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool arazzo graph`. */
export interface GraphOptions {
  file: string;
  workflow: string | undefined;
  format: 'mermaid' | 'dot' | 'svg' | 'json';
  level: 'steps' | 'machine';
  runner: string | undefined;
}

/** `tool arazzo graph <file>`: prints the chart of one workflow in `--format`; returns 0, or 10 for an invalid document. */
export async function graph(options: GraphOptions, { context, style }: CommandIo): Promise<number> {
  // The project's tool.config.yaml: its runner and silenced warnings (the flag wins).
  const settings = await readProjectSettings(options.file, context.cwd);
  const runner = resolveRunner(options.runner, context.env, settings.runner?.value);
  // No descriptions: a graph needs no source description, so nothing is read or fetched.
  const prepared = await prepareDocument({
    file: options.file,
    cwd: context.cwd,
    env: context.env,
    profile: runner.profile,
    runnerFrom: runner.from,
    workflowId: options.workflow,
    findings: { stderr: context.stderr, style, consequence: 'nothing was drawn', showWarnings: false },
    ...(settings.silence ? { silence: silencer(settings) } : {}),
    upTo: 'plan',
  });
  if (!prepared.valid) return EXIT.INVALID_DOCUMENT;
  const { doc, workflow, criteria, plan, profile } = prepared;
  const workflows = profile.runsNestedWorkflows && options.format !== 'json' && options.level === 'steps' ? await reachable(doc.model, workflow, criteria) : undefined;
  const text = options.format === 'json' ? await machineJson(plan) : workflows ? await drawWorkflows(workflows, options) : await draw(plan, options);
  context.stdout.write(text);
  return EXIT.OK;
}

/**
 * A profile that runs nested workflows: the chart of the workflow and every workflow it calls or
 * transfers to, when it calls or transfers at all (else undefined: one workflow's chart). Loaded
 * only for such a profile.
 */
async function reachable(doc: ArazzoDocument, workflow: Workflow, criteria: CriteriaOptions): Promise<WorkflowsChart | undefined> {
  const { planReachable } = await import('../../plan/plan-reachable.js');
  const { callsOrTransfers, readWorkflows, workflowSteps } = await import('../../draw/read-workflows.js');
  const workflows = new Map([...planReachable(doc, workflow, criteria)].map(([key, plan]) => [key, workflowSteps(plan)]));
  const entry = workflows.get(workflow.workflowId ?? '');
  return entry && callsOrTransfers(entry) ? readWorkflows(workflow.workflowId ?? '', workflows) : undefined;
}

/** The v2 chart of several workflows (read-workflows.ts) in `--format`; each renderer is loaded only for its format. */
async function drawWorkflows(chart: WorkflowsChart, options: GraphOptions): Promise<string> {
  if (options.format === 'mermaid') return (await import('../../draw/workflows-to-mermaid.js')).workflowsToMermaid(chart);
  const dot = (await import('../../draw/workflows-to-dot.js')).workflowsToDot(chart);
  return options.format === 'svg' ? svgOf(dot) : dot;
}

/** The compiled machine (XState is loaded only for the machine level and JSON). */
async function compiledMachine(plan: WorkflowPlan) {
  return (await import('../../plan/drawing-configs.js')).drawingMachine(plan);
}

/** `--format json`: the whole compiled machine, for the Stately visualizer. */
async function machineJson(plan: WorkflowPlan): Promise<string> {
  const machine = await compiledMachine(plan);
  return (await import('../../draw/to-stately-json.js')).toStatelyJson(machine);
}

/**
 * The chart at `--level` in `--format`: the steps from the plan, the machine from its compiled
 * config; each renderer is loaded only for its format, the SVG one (WebAssembly Graphviz) only for svg.
 */
async function draw(plan: WorkflowPlan, options: GraphOptions): Promise<string> {
  const steps = options.level === 'steps' ? stepsChart(plan) : undefined;
  const config = steps ? undefined : (await compiledMachine(plan)).config;
  if (options.format === 'mermaid') {
    if (steps) return (await import('../../draw/steps-to-mermaid.js')).stepsToMermaid(steps);
    return (await import('../../draw/to-mermaid.js')).toMermaid(config as object);
  }
  const dot = steps ? (await import('../../draw/steps-to-dot.js')).stepsToDot(steps) : (await import('../../draw/to-dot.js')).toDot(config as object);
  return options.format === 'svg' ? svgOf(dot) : dot;
}

/** `--format svg`: the chart rendered by WebAssembly Graphviz. Throws SVG_TOO_LARGE (exit 2) for a chart too large to lay out in time. */
async function svgOf(dot: string): Promise<string> {
  const { renderSvg, SvgRefusedError } = await import('../../output/render-svg.js');
  try {
    return await renderSvg(dot);
  } catch (error) {
    if (!(error instanceof SvgRefusedError)) throw error;
    throw new ToolError('SVG_TOO_LARGE', `${error.message}; nothing was drawn`, 'Print it with --format dot (for Graphviz\'s own dot, which may take long on it) or --format mermaid, or draw one workflow with --workflow.');
  }
}
