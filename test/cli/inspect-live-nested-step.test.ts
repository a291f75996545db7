/** The --inspect live stream of a v2 run: a nested workflow step is one run of its step, and the stream follows the selected workflow only. */
import { describe, expect, it } from '@jest/globals';
import { liveFacts, readLiveView, useLiveViewWorkspace, whileHeld } from './live-view-harness.js';

const ws = useLiveViewWorkspace('tool-inspect-v2-', 'v2-nested.arazzo.yaml', {
  'GET /a': { status: 200, body: { id: 'x7' } },
  'GET /items/{id}': { status: 200, body: { status: 'ready' } },
});

describe('tool arazzo run --tool-runner v2 --inspect', () => {
  it('shows a nested workflow step as one run of its step, the called workflow\'s facts apart', async () => {
    await whileHeld(ws.dir, ['arazzo', 'run', 'v2-nested.arazzo.yaml', '--workflow', 'main', '--tool-runner', 'v2', '--inspect-hold', '--quiet'], async (url) => {
      const made = liveFacts(await readLiveView(url, 'live'));
      // The called workflow's facts carry its actor path (inspect-live-called-workflows.test.ts).
      expect(made.filter((f) => f.actor === undefined).map((f) => [f.from, f.to, f.step?.stepId, f.step?.runs, f.edge?.id])).toEqual([
        ['', 's0_first', undefined, undefined, 'edge-start-s0_first'],
        ['s0_first', 's1_callChild.calling', 'first', 1, 'edge-s0_first-s1_callChild'],
        ['s1_callChild.calling', 's1_callChild.invoking', undefined, undefined, undefined],
        ['s1_callChild.invoking', 's1_callChild.judging', undefined, undefined, undefined],
        ['s1_callChild', 's2_after', 'callChild', 1, 'edge-s1_callChild-s2_after'],
        ['s2_after', 'succeeded', 'after', 1, 'edge-s2_after-succeeded'],
      ]);
      expect(made.filter((f) => f.actor === undefined)[3]!.event).toBe('nested workflow done');
      expect(made.at(-1)!.end).toEqual({ status: 'succeeded' });
    });
  });
});
