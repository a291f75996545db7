import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { RUNNER_FLAG_DESCRIPTION } from './runner-flag.js';
import { ToolCommand } from './tool-command.js';

/** `tool arazzo graph <file>`: prints the statechart a workflow compiles to, as Mermaid, Graphviz dot or XState JSON. */
export class GraphCommand extends ToolCommand {
  static override paths = [['arazzo', 'graph']];

  static override usage = Command.Usage({
    category: 'Arazzo',
    description: 'draw the statechart a workflow compiles to',
    details: `
      Compiles one workflow to the XState machine \`arazzo run\` executes and prints it on stdout: Mermaid (default; a \`flowchart TB\` of the steps, a \`stateDiagram-v2\` at \`--level machine\`), a Graphviz digraph (\`--format dot\`), or the machine config itself as JSON (\`--format json\`, importable into the Stately visualizer).

      \`--level steps\` (default) draws the steps, top to bottom, with only their Arazzo actions (\`goto cleanup: $statusCode == 404\`, \`retry ≤3 / 2s: …\`, \`end\`), \`next step\` and \`fail\`. \`--level machine\` draws every state and transition: each step is a state \`s<index>_<stepId>\` whose runStep.done transitions judge it and apply its action chains, and the finals are \`succeeded\` and \`failed\`. \`--format svg\` renders the chart in-process (WebAssembly Graphviz; no \`dot\` binary needed); a chart of more than 300 nodes, or one not laid out within 20 s, is refused with exit 2 (\`SVG_TOO_LARGE\`): print it with \`--format dot\` or \`mermaid\`. The output is deterministic.

      With \`--tool-runner v2\`, a nested workflow step is drawn as a cluster holding the called workflow's steps (each workflow drawn once; a second call is an edge into the same cluster), and a \`goto\` to a workflow as an edge into that workflow's chart.

      Nothing is sent and no source description is read: drawing needs only the document. An invalid document exits 10, as \`arazzo run\` would. \`--tool-allow-read\` and \`--tool-allow-ref-host\` are accepted and have nothing to allow here, so one set of flags works for every \`arazzo\` command. See docs/state-machine.md.
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

  // Accepted so that the flags of run, validate and replay work here too; drawing reads no description.
  allowRead = Option.Array('--tool-allow-read', [], { description: 'Accepted for the same flags as run and validate; graph reads no description' });

  allowRefHost = Option.Array('--tool-allow-ref-host', [], { description: 'Accepted for the same flags as run; graph fetches nothing' });

  async execute(): Promise<number> {
    const { graph } = await import('./actions/graph.js');
    return graph(this, this.io);
  }
}
