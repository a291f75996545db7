/**
 * When the `--inspect` live view ends: with the run when stdin or stderr is not a terminal (CI),
 * at Ctrl-C when both are, and at Ctrl-C with `--inspect-hold` whatever they are. In-process, with
 * the terminals told through the command's context as src/bin.ts tells them.
 */
import { describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import { holdsLiveView } from '../../src/observe/live-view-hold.js';
import { liveUrl, startLiveRun, type Terminals, useLiveViewWorkspace, waitForStderr, whileHeld } from './live-view-harness.js';

const ws = useLiveViewWorkspace('tool-inspect-hold-', 'inspect-live.arazzo.yaml', {
  'POST /items': { status: 201, body: { id: 1 } },
  'GET /items/{id}': { status: 200, body: { status: 'ready' } },
  'GET /items': { status: 200, body: [] },
});

/** Starts `tool arazzo run inspect-live.arazzo.yaml --inspect ...flags` in-process; the caller aborts the run's `controller` as Ctrl-C. */
function start(flags: string[], terminals: Terminals) {
  return startLiveRun(ws.dir, ['arazzo', 'run', 'inspect-live.arazzo.yaml', '--inspect', '--quiet', ...flags], terminals);
}

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => get(url, (res) => resolve(res.resume().statusCode ?? 0)).on('error', reject));
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
    await whileHeld(ws.dir, ['arazzo', 'run', 'inspect-live.arazzo.yaml', '--inspect-hold', '--quiet'], async (url) => {
      expect(await status(url)).toBe(200);
    });
  });
});
