import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startDemoApi } from '../../demo/demo-api.js';
import { packageRoot } from '../../package-root.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool demo`. */
export interface DemoOptions {
  dryRun: boolean;
  output: string;
}

/** `tool demo`: starts the demo API, registers it in a throw-away config folder and runs the demo workflow against it; returns the run's exit code. */
export async function demo(options: DemoOptions, { context, style, note }: CommandIo): Promise<number> {
  const runCli = context.runCommandLine;
  if (runCli === undefined) throw new Error('tool demo runs only under runCli');
  const api = await startDemoApi();
  const home = await mkdtemp(join(tmpdir(), 'tool-demo-'));
  try {
    const env = { ...context.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
    const quiet = { ...context, env, stdout: sink(), stderr: sink() };
    const added = await runCli(['api', 'add', 'shelter', api.url], quiet);
    if (added !== 0) throw new Error(`could not register the demo API (exit ${added})`);
    const file = join(packageRoot(), 'examples', 'demo', 'adopt-pet.arazzo.yaml');
    note(style.dim(`demo API listening on ${api.url}; running ${file}`));
    const argv = ['arazzo', 'run', file, '--input', 'name=Rex', '--input', 'adopter=Ada', '--output', options.output];
    if (options.dryRun) argv.push('--dry-run');
    return await runCli(argv, { ...context, env });
  } finally {
    await api.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** A writable that drops everything (for the demo's set-up commands). */
function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
