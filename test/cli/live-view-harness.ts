/**
 * Running `tool arazzo run --inspect` in-process for the live view's CLI tests: a scripted server
 * and workspace per test file, the run started with the terminals told through the command's
 * context (as src/bin.ts tells them), waiting for what it says on stderr, the live view's URL found
 * there and its streams read for a moment.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { get } from 'node:http';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import type { LiveFact } from '../../src/observe/live-feed.js';
import { startScriptedServer, type Routes, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { Collector } from './run-tool.js';

/**
 * Registers beforeAll/afterAll hooks for a scripted server answering `routes` and a workspace
 * (named from `prefix`) holding the API description pointed at it and the workflow `fixture`;
 * returns the workspace's directory they fill in.
 */
export function useLiveViewWorkspace(prefix: string, fixture: string, routes: Routes): { readonly dir: string } {
  let server: ScriptedServer | undefined;
  let ws: Workspace | undefined;

  beforeAll(async () => {
    server = await startScriptedServer(routes);
    ws = makeWorkspace(prefix);
    ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
    ws.fixture(fixture);
  });

  afterAll(async () => {
    await server?.close();
    ws?.remove();
  });

  return {
    get dir() {
      if (!ws) throw new Error('the workspace is used before beforeAll ran');
      return ws.dir;
    },
  };
}

/** The terminals a run is told of; absent means not told. */
export interface Terminals {
  stdinIsTTY?: boolean;
  stderrIsTTY: boolean;
}

export interface LiveRun {
  exit: Promise<number>;
  stderr: Collector;
  /** Aborting it stands for Ctrl-C. */
  controller: AbortController;
}

/** Starts `tool ...argv` in-process in `dir`, with XDG homes under it; the caller aborts the run's `controller` as Ctrl-C. */
export function startLiveRun(dir: string, argv: string[], terminals: Terminals = { stderrIsTTY: false }): LiveRun {
  const controller = new AbortController();
  const stderr = new Collector();
  const exit = runCli(argv, {
    stdin: new PassThrough(),
    stdout: new Collector(),
    stderr,
    env: { XDG_CONFIG_HOME: `${dir}/config`, XDG_CACHE_HOME: `${dir}/cache` },
    cwd: dir,
    colors: false,
    stdoutIsTTY: false,
    signal: controller.signal,
    ...terminals,
  });
  return { exit, stderr, controller };
}

/** Waits until `stderr` holds `text`; throws with what it holds after 30 seconds. */
export async function waitForStderr(stderr: Collector, text: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!stderr.text.includes(text)) {
    if (Date.now() > deadline) throw new Error(`never saw "${text}" in:\n${stderr.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The live view's URL, from the line the run printed on stderr. */
export function liveUrl(stderr: Collector): string {
  return /live view at (\S+)/.exec(stderr.text)![1]!;
}

/**
 * Starts `tool ...argv` with `--inspect-hold` among `argv` and no terminal, hands the live view's
 * URL to `check` while the view is held, then presses Ctrl-C and expects exit code 0.
 */
export async function whileHeld(dir: string, argv: string[], check: (url: string) => Promise<void>): Promise<void> {
  const run = startLiveRun(dir, argv);
  try {
    await waitForStderr(run.stderr, 'until you press Ctrl-C');
    await check(liveUrl(run.stderr));
  } finally {
    run.controller.abort();
    expect(await run.exit).toBe(0);
  }
}

/** Reads `path` under the live view's URL for a moment (streams stay open) and returns the body. */
export function readLiveView(url: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(`${url}${path}`, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
      setTimeout(() => {
        res.destroy();
        resolve(body);
      }, 300);
    }).on('error', reject);
  });
}

/** The facts in a body read from `/live`. */
export function liveFacts(body: string): LiveFact[] {
  return [...body.matchAll(/event: fact\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!) as LiveFact);
}
