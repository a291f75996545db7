/** Runs the real `tool` binary (node bin/tool.js, built to dist/) against the demo API, for the trace and inspect e2e tests. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoApi, type DemoApi } from '../../src/demo/demo-api.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/tool.js');

export interface Demo {
  api: DemoApi;
  /** A temp folder holding adopt-pet.arazzo.yaml and its description, pointed at the API. */
  dir: string;
  file: string;
}

/** Starts a fresh demo API (so every run sees the same 503 and the same two pending looks) and writes the workflow beside it. */
export async function startDemo(): Promise<Demo> {
  const api = await startDemoApi();
  const dir = mkdtempSync(join(tmpdir(), 'tool-trace-'));
  const description = readFileSync(join(ROOT, 'examples/demo/pets.openapi.yaml'), 'utf8').replace('http://127.0.0.1:8787', api.url);
  writeFileSync(join(dir, 'pets.openapi.yaml'), description);
  copyFileSync(join(ROOT, 'examples/demo/adopt-pet.arazzo.yaml'), join(dir, 'adopt-pet.arazzo.yaml'));
  return { api, dir, file: join(dir, 'adopt-pet.arazzo.yaml') };
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exit: Promise<number | null>;
}

/** Spawns `node bin/tool.js <argv>` in `cwd` with a throw-away XDG config. */
export function spawnTool(argv: string[], cwd: string): Spawned {
  const child = spawn(process.execPath, [BIN, ...argv], {
    cwd,
    env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: join(cwd, 'config'), XDG_CACHE_HOME: join(cwd, 'cache'), NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Waits until `read()` matches `pattern` (or the process ends), and returns the match. */
export async function waitFor(read: () => string, pattern: RegExp, exit: Promise<unknown>, timeoutMs = 15000): Promise<RegExpExecArray> {
  let ended = false;
  void exit.then(() => (ended = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (ended || Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
