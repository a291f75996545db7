import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { WorkflowPlan } from '../../machines/types.js';
import type { WorkflowsChart } from '../draw/read-workflows.js';
import type { ArazzoDocument, Workflow } from '../arazzo/model.js';
import type { CriteriaOptions } from '../plan/evaluate-criteria.js';
import { EXIT } from './exit-codes.js';
import { resolveRunner, RUNNER_FLAG_DESCRIPTION } from './runner-flag.js';
import { ToolCommand } from './tool-command.js';

/** `tool arazzo graph <file>`: prints the statechart a workflow compiles to, as Mermaid, Graphviz dot or XState JSON. */
export class GraphCommand extends ToolCommand {
  static override paths = [['arazzo', 'graph']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'draw the statechart a workflow compiles to',
    details: `
      Compiles one workflow to the XState machine \`arazzo run\` executes and prints it on stdout: a Mermaid \`stateDiagram-v2\` (default), a Graphviz digraph (\`--format dot\`), or the machine config itself as JSON (\`--format json\`, importable into the Stately visualizer).

      \`--level steps\` (default) draws the steps, top to bottom, with only their Arazzo actions (\`goto cleanup: $statusCode == 404\`, \`retry ≤3 / 2s: …\`, \`end\`), \`next step\` and \`fail\`. \`--level machine\` draws every state and transition: each step is a state \`s<index>_<stepId>\` whose runStep.done transitions judge it and apply its action chains, and the finals are \`succeeded\` and \`failed\`. \`--format svg\` renders the chart in-process (WebAssembly Graphviz; no \`dot\` binary needed). The output is deterministic.

      With \`--tool-runner v2\`, a nested workflow step is drawn as a cluster holding the called workflow's steps (each workflow drawn once; a second call is an edge into the same cluster), and a \`goto\` to a workflow as an edge into that workflow's chart.

      Nothing is sent and no source description is read: drawing needs only the document. An invalid document exits 10, as \`arazzo run\` would. See docs/state-machine.md.
    `,
    examples: [
      ['Draw the only workflow as Mermaid', '$0 arazzo graph flow.arazzo.yaml'],
      ['Render one workflow as SVG', '$0 arazzo graph flow.arazzo.yaml --workflow buyPet --format svg > buyPet.svg'],
      ['Draw every state and transition of the machine', '$0 arazzo graph flow.arazzo.yaml --level machine'],
      ['Print the XState config for the Stately visualizer', '$0 arazzo graph flow.arazzo.yaml --format json'],
      ['Draw the workflow as the v2 runner plans it', '$0 arazzo graph flow.arazzo.yaml --tool-runner v2'],
    ],
  });

  file = Option.String({ name: 'file', required: true });

  workflow = Option.String('--workflow', { description: 'The workflowId to draw (required when the document has several)' });

  format = Option.String('--format', 'mermaid', {
    description: 'Output format: mermaid, dot, svg (rendered in-process, no Graphviz needed) or json (always the whole machine)',
    validator: t.isEnum(['mermaid', 'dot', 'svg', 'json'] as const),
  });

  level = Option.String('--level', 'steps', {
    description: 'steps: the steps and their Arazzo actions (default); machine: every state and transition of the machine',
    validator: t.isEnum(['steps', 'machine'] as const),
  });

  runner = Option.String('--tool-runner', { description: RUNNER_FLAG_DESCRIPTION });

  async execute(): Promise<number> {
    const profile = resolveRunner(this.runner, this.context.env);
    const { prepareDocument } = await import('../plan/prepare-document.js');
    const { drawingMachine } = await import('../plan/drawing-configs.js');
    const { toStatelyJson } = await import('../draw/to-stately-json.js');

    // No descriptions: a graph needs no source description, so nothing is read or fetched.
    const prepared = await prepareDocument({
      file: this.file,
      cwd: this.context.cwd,
      env: this.context.env,
      profile,
      workflowId: this.workflow,
      findings: { stderr: this.context.stderr, style: this.style, consequence: 'nothing was drawn', showWarnings: false },
      upTo: 'plan',
    });
    if (!prepared.valid) return EXIT.INVALID_DOCUMENT;
    const { doc, workflow, criteria, plan } = prepared;
    const machine = drawingMachine(plan);
    const workflows = profile.runsNestedWorkflows && this.format !== 'json' && this.level === 'steps' ? await this.reachable(doc.model, workflow, criteria) : undefined;
    const text = this.format === 'json' ? toStatelyJson(machine) : workflows ? await this.drawWorkflows(workflows) : await this.draw(plan, machine.config);
    this.context.stdout.write(text);
    return EXIT.OK;
  }

  /** A profile that runs nested workflows: the chart of the workflow and every workflow it calls or transfers to, when it calls or transfers at all (else undefined: one workflow's chart). */
  private async reachable(doc: ArazzoDocument, workflow: Workflow, criteria: CriteriaOptions): Promise<WorkflowsChart | undefined> {
    const { planReachable } = await import('../plan/plan-reachable.js');
    const { callsOrTransfers, readWorkflows, workflowSteps } = await import('../draw/read-workflows.js');
    const workflows = new Map([...planReachable(doc, workflow, criteria)].map(([key, plan]) => [key, workflowSteps(plan)]));
    const entry = workflows.get(workflow.workflowId ?? '');
    return entry && callsOrTransfers(entry) ? readWorkflows(workflow.workflowId ?? '', workflows) : undefined;
  }

  /** The v2 chart of several workflows (read-workflows.ts) in `--format`. */
  private async drawWorkflows(chart: WorkflowsChart): Promise<string> {
    if (this.format === 'mermaid') return (await import('../draw/workflows-to-mermaid.js')).workflowsToMermaid(chart);
    const dot = (await import('../draw/workflows-to-dot.js')).workflowsToDot(chart);
    if (this.format !== 'svg') return dot;
    const { renderSvg } = await import('../output/render-svg.js');
    return renderSvg(dot);
  }

  /**
   * The chart at `--level` in `--format`: the steps from the plan, the machine from its config; the
   * SVG renderer (WebAssembly Graphviz) is loaded only for svg.
   */
  private async draw(plan: WorkflowPlan, config: object): Promise<string> {
    const steps = this.level === 'steps' ? (await import('../draw/steps-chart.js')).stepsChart(plan) : undefined;
    if (this.format === 'mermaid') {
      if (steps) return (await import('../draw/steps-to-mermaid.js')).stepsToMermaid(steps);
      return (await import('../draw/to-mermaid.js')).toMermaid(config);
    }
    const dot = steps ? (await import('../draw/steps-to-dot.js')).stepsToDot(steps) : (await import('../draw/to-dot.js')).toDot(config);
    if (this.format !== 'svg') return dot;
    const { renderSvg } = await import('../output/render-svg.js');
    return renderSvg(dot);
  }
}
