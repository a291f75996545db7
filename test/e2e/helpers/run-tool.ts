/**
 * Spawns the real `tool` binary (bin/tool.js) asynchronously, so the test's own HTTP server keeps
 * serving while the child runs. The environment is minimal and points config and cache at a
 * temporary directory.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { REPO_ROOT } from './build.js';

export const TOOL_BIN = join(REPO_ROOT, 'bin', 'tool.js');

export interface ToolResult {
  /** Exit code, or null when the child died from a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall-clock time from spawn to exit. */
  elapsedMs: number;
}

export interface ToolOptions {
  /** Working directory, also the home of XDG_CONFIG_HOME/XDG_CACHE_HOME unless `home` is given. */
  cwd: string;
  /** Directory holding config/ and cache/ (defaults to cwd). */
  home?: string;
  /** The child is killed (and the promise rejects) after this long. Default 15 s. */
  timeoutMs?: number;
  env?: Record<string, string>;
}

/** A running child with its output so far and a promise of its result. */
export interface ToolProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** stdout and stderr collected so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves when stderr contains `text` (rejects when the child exits first). */
  waitForStderr(text: string | RegExp): Promise<void>;
  result: Promise<ToolResult>;
}

/** The environment every spawned tool gets: no colours, config and cache under `home`. */
export function toolEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    NO_COLOR: '1',
    ...extra,
  };
}

/** Starts `node bin/tool.js ...args` and returns the live process. */
export function spawnTool(args: readonly string[], opts: ToolOptions): ToolProcess {
  const started = Date.now();
  const child = spawn(process.execPath, [TOOL_BIN, ...args], {
    cwd: opts.cwd,
    env: toolEnv(opts.home ?? opts.cwd, opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string | RegExp; resolve: () => void; reject: (e: Error) => void }> = [];
  const matches = (text: string | RegExp) => (typeof text === 'string' ? stderr.includes(text) : text.test(stderr));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of waiters.splice(0)) {
      if (matches(waiter.text)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  const result = settleOnExit(child, args, opts.timeoutMs, () => stderr, (code, signal) => {
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(`tool exited before stderr showed ${String(waiter.text)}\nstderr:\n${stderr}`));
    return { code, signal, stdout, stderr, elapsedMs: Date.now() - started };
  });
  return {
    child,
    output: () => ({ stdout, stderr }),
    waitForStderr: (text) =>
      matches(text) ? Promise.resolve() : new Promise<void>((resolve, reject) => waiters.push({ text, resolve, reject })),
    result,
  };
}

/**
 * Resolves with `onClose(code, signal)` when `child` exits; kills it and rejects (with the stderr
 * so far) after `timeoutMs` (default 15 s), and rejects when it cannot start.
 */
export function settleOnExit<T>(
  child: ChildProcess,
  args: readonly string[],
  timeoutMs: number | undefined,
  stderr: () => string,
  onClose: (code: number | null, signal: NodeJS.Signals | null) => T,
): Promise<T> {
  const limit = timeoutMs ?? 15_000;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tool ${args.join(' ')} did not exit within ${limit} ms\nstderr so far:\n${stderr()}`));
    }, limit);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(onClose(code, signal));
    });
  });
}

/** Runs `node bin/tool.js ...args` to completion. Rejects only when it times out or cannot start. */
export function runTool(args: readonly string[], opts: ToolOptions): Promise<ToolResult> {
  return spawnTool(args, opts).result;
}
