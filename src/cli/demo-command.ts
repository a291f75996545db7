import { Command, Option } from 'clipanion';
import { Writable } from 'node:stream';
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
    // One import at a time: jest's ESM loader cannot take concurrent dynamic imports.
    const { startDemoApi } = await import('../demo/demo-api.js');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { packageRoot } = await import('../package-root.js');
    const runCli = this.context.runCommandLine;
    if (runCli === undefined) throw new Error('tool demo runs only under runCli');
    const api = await startDemoApi();
    const home = await mkdtemp(join(tmpdir(), 'tool-demo-'));
    try {
      const env = { ...this.context.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
      const quiet = { ...this.context, env, stdout: sink(), stderr: sink() };
      const added = await runCli(['api', 'add', 'shelter', api.url], quiet);
      if (added !== 0) throw new Error(`could not register the demo API (exit ${added})`);
      const file = join(packageRoot(), 'examples', 'demo', 'adopt-pet.arazzo.yaml');
      this.note(this.style.dim(`demo API listening on ${api.url}; running ${file}`));
      const argv = ['arazzo', 'run', file, '--input', 'name=Rex', '--input', 'adopter=Ada', '--output', this.output];
      if (this.dryRun) argv.push('--dry-run');
      return await runCli(argv, { ...this.context, env });
    } finally {
      await api.close();
      await rm(home, { recursive: true, force: true });
    }
  }
}

/** A writable that drops everything (for the demo's set-up commands). */
function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
