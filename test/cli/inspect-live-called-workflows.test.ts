/**
 * The --inspect live view of a v2 run follows the called workflows' machines: their actors invoked
 * and done (with the actor path), their steps keyed as the chart's clusters draw them, the chart
 * drawn with the called workflows' clusters; and `/events` keeps each actor's record deltas apart.
 */
import { describe, expect, it } from '@jest/globals';
import { liveFacts, readLiveView, useLiveViewWorkspace, whileHeld } from './live-view-harness.js';

const ws = useLiveViewWorkspace('tool-inspect-v2-calls-', 'v2-nested.arazzo.yaml', {
  'GET /a': { status: 200, body: { id: 'x7' } },
  'GET /c': { status: 200, body: { c: 3 } },
  'GET /items/{id}': { status: 200, body: { status: 'ready' } },
});

/** Runs `workflow` with --inspect-hold and hands the live view's URL to `check` while it is held. */
function inspectRun(workflow: string, check: (url: string) => Promise<void>): Promise<void> {
  return whileHeld(ws.dir, ['arazzo', 'run', 'v2-nested.arazzo.yaml', '--workflow', workflow, '--tool-runner', 'v2', '--inspect-hold', '--quiet'], check);
}

describe('tool arazzo run --tool-runner v2 --inspect: called workflows', () => {
  it('logs the nested workflow\'s actor invoked and done, and its steps on its cluster\'s nodes and edges', async () => {
    await inspectRun('main', async (url) => {
      const made = liveFacts(await readLiveView(url, 'live'));
      expect(made.map((f) => [f.actor ?? '', f.event, f.from, f.to, f.step?.key, f.edge?.id])).toEqual([
        ['', 'start', '', 's0_first', undefined, 'edge-start-s0_first'],
        ['', 'step done', 's0_first', 's1_callChild.calling', 's0_first', 'edge-s0_first-s1_callChild'],
        ['', 'step done', 's1_callChild.calling', 's1_callChild.invoking', undefined, undefined],
        ['main/callChild/child', 'invoked', '', 'child/s0_fetch', undefined, 'edge-child/start-child/s0_fetch'],
        ['main/callChild/child', 'step done', 'child/s0_fetch', 'child/succeeded', 'child/s0_fetch', 'edge-child/s0_fetch-child/succeeded'],
        // XState reports the child's end after its caller moved on.
        ['', 'nested workflow done', 's1_callChild.invoking', 's1_callChild.judging', undefined, undefined],
        ['main/callChild/child', 'done', 'child/succeeded', 'child/succeeded', undefined, undefined],
        ['', 'step done', 's1_callChild', 's2_after', 's1_callChild', 'edge-s1_callChild-s2_after'],
        ['', 'step done', 's2_after', 'succeeded', 's2_after', 'edge-s2_after-succeeded'],
      ]);
      expect(made[4]!.step).toMatchObject({ stepId: 'fetch', workflow: 'child', runs: 1, status: 200, ok: true });
      expect(made.filter((f) => f.end)).toEqual([made.at(-1)]);
      // The page draws the called workflow's cluster, its nodes under the ids the facts name.
      const page = (await readLiveView(url, '')).replaceAll('&#45;', '-');
      for (const id of ['cluster_wf_child', 'node-child/s0_fetch', 'edge-child/s0_fetch-child/succeeded', 'call-s1_callChild']) expect(page).toContain(`id="${id}"`);
    });
  });

  it('follows a transfer inside a nested call to the target workflow\'s machine', async () => {
    await inspectRun('nestedTransfer', async (url) => {
      const made = liveFacts(await readLiveView(url, 'live'));
      const actors = made.filter((f) => f.actor !== undefined && ['invoked', 'done'].includes(f.event)).map((f) => `${f.actor} ${f.event} ${f.to}`);
      expect(actors).toEqual([
        'nestedTransfer/callTransfers/transfers invoked transfers/s0_first',
        'nestedTransfer/callTransfers/target invoked target/s0_last',
        'nestedTransfer/callTransfers/transfers done transfers/transferred',
        'nestedTransfer/callTransfers/target done target/succeeded',
      ]);
      expect(made.find((f) => f.step?.key === 'transfers/s0_first')?.edge?.id).toBe('edge-transfers/s0_first-transfers/transferred-target');
      expect(made.at(-1)!.end).toEqual({ status: 'succeeded' });
    });
  });

  it('follows a top-level transfer to the target workflow\'s machine, and ends the run there', async () => {
    await inspectRun('transfers', async (url) => {
      const made = liveFacts(await readLiveView(url, 'live'));
      expect(made.map((f) => [f.actor ?? '', f.event, f.to, f.end?.status])).toEqual([
        ['', 'start', 's0_first', undefined],
        ['', 'step done', 'transferred', undefined],
        ['target', 'invoked', 'target/s0_last', undefined],
        ['target', 'step done', 'target/succeeded', 'succeeded'],
      ]);
    });
  });

  it('sends each actor\'s run records on /events from its own start, though top-level actors reuse session ids', async () => {
    await inspectRun('transfers', async (url) => {
      const events = (await readLiveView(url, 'events'))
        .split('\n\n')
        .filter((block) => block.startsWith('data: '))
        .map((block) => JSON.parse(block.slice('data: '.length)) as { type: string; sessionId?: string; snapshot?: { context?: { workflowId?: string; recordsFrom?: number; records?: Array<{ stepId: string }> } } });
      const records = events.filter((e) => e.type === '@xstate.snapshot' && (e.snapshot?.context?.records?.length ?? 0) > 0).map((e) => [e.snapshot!.context!.workflowId, e.snapshot!.context!.recordsFrom, e.snapshot!.context!.records!.map((r) => r.stepId)]);
      expect(records).toEqual([
        ['transfers', 0, ['first']],
        ['target', 0, ['last']],
      ]);
    });
  });
});
