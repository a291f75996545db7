/**
 * Runs the CLI in-process the way test/e2e spawns the binary: in a workspace folder that is also
 * the home of config/ and cache/, with the same minimal environment (toolEnv), optional bytes on
 * stdin and stdout kept as bytes. The result has the shape of the spawned runner's, so the record
 * assertions of test/e2e/helpers/record.ts apply unchanged.
 */
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import { toolEnv } from '../e2e/helpers/run-tool.js';
import { Collector } from './run-tool.js';

export interface WorkspaceResult {
  code: number;
  /** Always null: nothing in-process dies from a signal (kept for the spawned runner's shape). */
  signal: null;
  stdout: string;
  /** stdout as written. */
  bytes: Buffer;
  stderr: string;
  /** Wall-clock time of the command. */
  elapsedMs: number;
}

export interface WorkspaceOptions {
  /** Working directory, also the home of XDG_CONFIG_HOME/XDG_CACHE_HOME unless `home` is given. */
  cwd: string;
  /** Directory holding config/ and cache/ (defaults to cwd). */
  home?: string;
  env?: Record<string, string>;
  /** Bytes on stdin (empty when absent). */
  input?: string | Buffer;
  /** The command is aborted (as by Ctrl-C) and the promise rejects after this long. Default 15 s. */
  timeoutMs?: number;
}

/** Runs `tool <args>` in-process in `opts.cwd`. Rejects only when it times out. */
export async function runInWorkspace(args: readonly string[], opts: WorkspaceOptions): Promise<WorkspaceResult> {
  const started = Date.now();
  const stdout = new Collector();
  const stderr = new Collector();
  const controller = new AbortController();
  const limit = opts.timeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`tool ${args.join(' ')} did not finish within ${limit} ms\nstderr so far:\n${stderr.text}`));
    }, limit);
  });
  const input = opts.input === undefined ? [] : [Buffer.from(opts.input)];
  try {
    const code = await Promise.race([
      runCli([...args], {
        stdin: Readable.from(input),
        stdout,
        stderr,
        env: toolEnv(opts.home ?? opts.cwd, opts.env),
        cwd: opts.cwd,
        colors: false,
        stderrIsTTY: false,
        stdoutIsTTY: false,
        signal: controller.signal,
      }),
      timedOut,
    ]);
    return { code, signal: null, stdout: stdout.text, bytes: stdout.bytes(), stderr: stderr.text, elapsedMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** A command started in-process that the test interrupts itself (as by Ctrl-C) with `controller`. */
export interface StartedCommand {
  exit: Promise<number>;
  controller: AbortController;
  stdout: Collector;
  stderr: Collector;
}

/** Starts `tool <args>` in-process in `dir` without waiting for it; the test aborts `controller` to interrupt it. */
export function startInWorkspace(args: readonly string[], dir: string): StartedCommand {
  const controller = new AbortController();
  const stdout = new Collector();
  const stderr = new Collector();
  const exit = runCli([...args], {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: toolEnv(dir),
    cwd: dir,
    colors: false,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    signal: controller.signal,
  });
  return { exit, controller, stdout, stderr };
}
