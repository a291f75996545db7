/**
 * When the `--inspect` live view ends: with the run when stdin or stderr is not a terminal (CI),
 * at Ctrl-C when both are, and at Ctrl-C with `--inspect-hold` whatever they are. In-process, with
 * the terminals told through the command's context as src/bin.ts tells them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import { holdsLiveView } from '../../src/run/live-view-hold.js';
import { startScriptedServer, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { Collector } from './run-tool.js';

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer({
    'POST /items': { status: 201, body: { id: 1 } },
    'GET /items/{id}': { status: 200, body: { status: 'ready' } },
    'GET /items': { status: 200, body: [] },
  });
  ws = makeWorkspace('tool-inspect-hold-');
  ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  ws.fixture('inspect-live.arazzo.yaml');
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

/** Starts `tool arazzo run inspect-live.arazzo.yaml --inspect ...flags` in-process; the caller aborts `controller` as Ctrl-C. */
function start(flags: string[], terminals: { stdinIsTTY?: boolean; stderrIsTTY: boolean }, controller = new AbortController()) {
  const stderr = new Collector();
  const exit = runCli(['arazzo', 'run', 'inspect-live.arazzo.yaml', '--inspect', '--quiet', ...flags], {
    stdin: new PassThrough(),
    stdout: new Collector(),
    stderr,
    env: { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` },
    cwd: ws.dir,
    colors: false,
    stdoutIsTTY: false,
    signal: controller.signal,
    ...terminals,
  });
  return { exit, stderr, controller };
}

async function waitForStderr(stderr: Collector, text: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!stderr.text.includes(text)) {
    if (Date.now() > deadline) throw new Error(`never saw "${text}" in:\n${stderr.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => get(url, (res) => resolve(res.resume().statusCode ?? 0)).on('error', reject));
}

function liveUrl(stderr: Collector): string {
  return /live view at (\S+)/.exec(stderr.text)![1]!;
}

describe('holdsLiveView', () => {
  it.each([
    [undefined, { stdinIsTTY: true, stderrIsTTY: true }, true],
    [false, { stdinIsTTY: true, stderrIsTTY: false }, false],
    [false, { stdinIsTTY: false, stderrIsTTY: true }, false],
    [undefined, { stderrIsTTY: true }, false],
    [true, {}, true],
  ])('with --inspect-hold %s and terminals %j holds: %s', (hold, terminals, held) => {
    expect(holdsLiveView(hold, terminals)).toBe(held);
  });
});

describe('tool arazzo run --inspect after the run', () => {
  it('ends the live view with the run when stdin is not a terminal, and says so', async () => {
    const run = start([], { stdinIsTTY: false, stderrIsTTY: true });
    expect(await run.exit).toBe(0);
    expect(run.stderr.text).toContain('inspect: the run is over; the live view ends with it (no terminal to press Ctrl-C in; --inspect-hold keeps it up)\n');
    await expect(status(liveUrl(run.stderr))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('ends it with the run when no terminal was told of (a test harness, a pipe)', async () => {
    const run = start([], { stderrIsTTY: false });
    expect(await run.exit).toBe(0);
    expect(run.stderr.text).toContain('the live view ends with it');
  });

  it('holds it until Ctrl-C when stdin and stderr are terminals', async () => {
    const run = start([], { stdinIsTTY: true, stderrIsTTY: true });
    await waitForStderr(run.stderr, 'until you press Ctrl-C');
    expect(await status(liveUrl(run.stderr))).toBe(200);
    run.controller.abort();
    expect(await run.exit).toBe(0);
    expect(run.stderr.text).not.toContain('ends with it');
  });

  it('holds it until Ctrl-C with --inspect-hold, which implies --inspect, without a terminal', async () => {
    const controller = new AbortController();
    const stderr = new Collector();
    const exit = runCli(['arazzo', 'run', 'inspect-live.arazzo.yaml', '--inspect-hold', '--quiet'], {
      stdin: new PassThrough(),
      stdout: new Collector(),
      stderr,
      env: { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` },
      cwd: ws.dir,
      colors: false,
      stderrIsTTY: false,
      stdoutIsTTY: false,
      signal: controller.signal,
    });
    await waitForStderr(stderr, 'until you press Ctrl-C');
    expect(await status(liveUrl(stderr))).toBe(200);
    controller.abort();
    expect(await exit).toBe(0);
  });
});
