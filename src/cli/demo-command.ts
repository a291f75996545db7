import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ToolCommand } from './tool-command.js';

/** `tool demo`: runs the bundled example workflow against the bundled demo API, offline. */
export class DemoCommand extends ToolCommand {
  static override paths = [['demo']];

  static override usage = Command.Usage({
    description: 'run the example workflow against a local demo API (no network needed)',
    details: `
      Starts the demo pet shelter API on a free 127.0.0.1 port, registers it as the API "shelter" in a throw-away configuration folder (your own configuration is not touched), and runs examples/demo/adopt-pet.arazzo.yaml with \`tool arazzo run\`. The run record is printed on stdout, the progress on stderr. The workflow shows inputs, outputs, a retry action and a polling goto.
    `,
    examples: [
      ['Run the demo', '$0 demo'],
      ['Show the requests without sending them', '$0 demo --dry-run'],
    ],
  });

  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the requests instead of sending them' });

  output = Option.String('--output', 'json', {
    description: 'Format of the run record: json or yaml',
    validator: t.isEnum(['json', 'yaml'] as const),
  });

  async execute(): Promise<number> {
    const { demo } = await import('./actions/demo.js');
    return demo(this, this.io);
  }
}
