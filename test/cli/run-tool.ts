/** Runs the CLI in-process with collecting streams, the way src/bin.ts would run it. */
import { PassThrough, Writable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  colors?: boolean;
  stdoutIsTTY?: boolean;
  /** Replaces the collecting stdout (e.g. with one that fails). */
  stdout?: Writable;
}

/** A Writable that keeps everything written to it. */
export class Collector extends Writable {
  text = '';
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    this.chunks.push(buffer);
    this.text += buffer.toString();
    done();
  }

  /** Everything written, byte for byte. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Runs `tool <argv>` and returns the exit code and what went to stdout and stderr. */
export async function runTool(argv: string[], options: RunOptions = {}): Promise<ToolResult> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await runCli(argv, {
    stdin: new PassThrough(),
    stdout: options.stdout ?? stdout,
    stderr,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    colors: options.colors ?? false,
    stderrIsTTY: false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    signal: new AbortController().signal,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
