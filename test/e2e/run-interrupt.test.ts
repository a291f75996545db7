/**
 * Ctrl-C during a run: the in-flight request is abandoned, nothing more is sent, the partial
 * record goes to stdout and the exit code is 130.
 */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './helpers/harness.js';
import { recordOf, trail } from './helpers/record.js';
import type { ScriptedServer } from './helpers/scripted-server.js';

const h = useRunHarness();

/** Resolves once the server has seen a request to `path`. */
async function requestArrived(server: ScriptedServer, path: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.hits.some((hit) => hit.path === path)) {
    if (Date.now() > deadline) throw new Error(`no request to ${path} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('arazzo run interrupted by SIGINT', () => {
  it('exits 130 long before the slow response with the partial record and sends nothing more', async () => {
    const run = h.start('interrupt.arazzo.yaml', ['--tool-retry', '0'], {
      'GET /a': { body: { n: 1 } },
      'GET /slow': { delayMs: 30_000 },
      'GET /b': {},
    });
    await requestArrived(h.server, '/slow');
    const sentAt = Date.now();
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    // Well under the 30 s the response would take, with room for a loaded machine.
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    const record = recordOf(result);
    expect(record.workflowId).toBe('interrupted');
    expect(record.outputs).toEqual({});
    expect(trail(record)).toEqual(['quick:200']);
    expect(record.steps[0]!.outputs).toEqual({ n: 1 });
    expect(result.stderr).toMatch(/interrupt/i);
    // Give a straggling request the time to arrive, if the child had sent one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/slow']);
  });

  it('exits 130 during a workflow retry sleep without sending the retry', async () => {
    const run = h.start('state-retry-after.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': { status: 409 } });
    await run.waitForStderr(/retry/);
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(trail(recordOf(result))).toEqual(['flaky:409']);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(h.server.count('GET /a')).toBe(1);
  });
});
