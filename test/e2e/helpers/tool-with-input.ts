/**
 * Spawns the real `tool` binary with bytes on its stdin and keeps stdout as bytes, for commands
 * that read a secret or a body from stdin and for checks on the exact bytes written to a pipe.
 */
import { spawn } from 'node:child_process';
import { settleOnExit, TOOL_BIN, toolEnv } from './run-tool.js';

export interface ByteResult {
  code: number | null;
  /** stdout as received. */
  bytes: Buffer;
  stdout: string;
  stderr: string;
}

export interface InputOptions {
  /** Working directory and the home of config/ and cache/. */
  cwd: string;
  /** Written to stdin, which is then closed (empty when absent). */
  input?: string | Buffer;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs `node bin/tool.js ...args` with `input` on stdin; rejects only when it times out or cannot start. */
export function runToolWithInput(args: readonly string[], opts: InputOptions): Promise<ByteResult> {
  const child = spawn(process.execPath, [TOOL_BIN, ...args], { cwd: opts.cwd, env: toolEnv(opts.cwd, opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A command that never reads stdin may exit before the write lands.
  child.stdin.on('error', () => undefined);
  child.stdin.end(opts.input ?? '');
  return settleOnExit(child, args, opts.timeoutMs, () => stderr, (code) => {
    const bytes = Buffer.concat(out);
    return { code, bytes, stdout: bytes.toString('utf8'), stderr };
  });
}
