/** Running `tool` in-process with injected streams and a temporary XDG home, for api-* and auth-* CLI tests. */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Home {
  dir: string;
  env: Record<string, string | undefined>;
  configDir: string;
  cacheDir: string;
  remove(): Promise<void>;
}

/** A fresh temporary directory used as XDG_CONFIG_HOME and XDG_CACHE_HOME (and HOME). */
export async function tempHome(): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'tool-auth-'));
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), PATH: '' };
  return { dir, env, configDir: join(dir, 'config', 'tool'), cacheDir: join(dir, 'cache', 'tool'), remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunOptions {
  env: Record<string, string | undefined>;
  /** Text piped on stdin (empty when absent), or a ready stream (a fake terminal). */
  stdin?: string | Readable;
  cwd?: string;
  /** Called with all of stderr so far after every write (to react to a printed URL). */
  onStderr?: (text: string) => void;
}

/** Runs one command line and captures its exit code, stdout and stderr. */
export async function tool(argv: string[], options: RunOptions): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stdout += chunk.toString();
      done();
    },
  });
  const err = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stderr += chunk.toString();
      options.onStderr?.(stderr);
      done();
    },
  });
  const stdin = typeof options.stdin === 'object' ? options.stdin : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  const code = await runCli(argv, {
    stdin,
    stdout: out,
    stderr: err,
    env: options.env,
    cwd: options.cwd ?? process.cwd(),
    colors: false,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** A fake terminal on stdin: raw mode is recorded, `type()` feeds keystrokes. */
export function fakeTerminal(): PassThrough & { isTTY: true; rawModes: boolean[]; setRawMode(mode: boolean): void; type(text: string): void } {
  const stream = new PassThrough() as PassThrough & { isTTY: true; rawModes: boolean[]; setRawMode(mode: boolean): void; type(text: string): void };
  stream.isTTY = true;
  stream.rawModes = [];
  stream.setRawMode = (mode: boolean) => {
    stream.rawModes.push(mode);
  };
  stream.type = (text: string) => {
    stream.write(text);
  };
  return stream;
}
