/**
 * Spawns the real `tool` binary with stdout on a device or file descriptor of the test's choosing
 * (/dev/full: every write fails with ENOSPC) or on a pipe the test can close early.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { settleOnExit, TOOL_BIN, toolEnv, type ToolResult } from './run-tool.js';

export interface StdioOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Where stdout goes: a path opened for writing (e.g. /dev/full), or 'pipe' (collected, closable). */
  stdout: string | 'pipe';
  /** Close the read end of the stdout pipe before the child writes anything (its writes then fail with EPIPE). */
  closeStdout?: boolean;
  /** Close the read end of the stderr pipe as soon as stderr matches this (the child's later writes fail with EPIPE). */
  closeStderrOn?: RegExp;
}

export interface StdioRun {
  child: ChildProcess;
  result: Promise<ToolResult>;
}

/** Starts `node bin/tool.js ...args` with stdout as `opts.stdout` says; stderr is a pipe, collected until closed. */
export function spawnWithStdio(args: readonly string[], opts: StdioOptions): StdioRun {
  const started = Date.now();
  const fd = opts.stdout === 'pipe' ? undefined : openSync(opts.stdout, 'w');
  const child = spawn(process.execPath, [TOOL_BIN, ...args], {
    cwd: opts.cwd,
    env: toolEnv(opts.cwd, opts.env),
    stdio: ['ignore', fd ?? 'pipe', 'pipe'],
  });
  if (fd !== undefined) closeSync(fd);
  let stdout = '';
  let stderr = '';
  if (opts.closeStdout) child.stdout?.destroy();
  else child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (opts.closeStderrOn?.test(stderr)) child.stderr?.destroy();
  });
  const result = settleOnExit(child, args, opts.timeoutMs, () => stderr, (code, signal) => ({ code, signal, stdout, stderr, elapsedMs: Date.now() - started }));
  return { child, result };
}
