/**
 * The actions change the context only through `assign` (machines/workflow-setup.ts; `records` and
 * `steps` are append-only logs). These check what that promises observers: every snapshot and
 * microstep an observer receives holds the values after its own transition, read when it is received.
 */
import { describe, expect, it } from '@jest/globals';
import { createActor, SimulatedClock } from 'xstate';
import { compileWorkflow } from '../../machines/compile-workflow.js';
import type { StepOutcome, WorkflowContext } from '../../machines/types.js';
import { action, judgeOf, step, withRunner } from './harness.js';

interface Seen {
  value: string;
  runs: number;
  retries: number;
  records: number;
  started: number;
  settled: number;
}

describe('context snapshots as observers receive them', () => {
  it('gives every observed snapshot and microstep the counters and records of its own transition', async () => {
    // a: 503 then 200 (retry); b: 409 then 200 (goto a once); then both succeed.
    const plan = {
      workflowId: 'wf',
      steps: [
        step('a', { onFailure: [action('retry', { name: 'busy', criteriaId: 0, retryLimit: 2 })] }),
        step('b', { onFailure: [action('goto', { name: 'again', criteriaId: 1, targetIndex: 0 })] }),
      ],
    };
    const script: Record<string, number[]> = { a: [503, 200, 200], b: [409, 200] };
    let started = 0;
    let settled = 0;
    const calls = new Map<string, number>();
    const machine = withRunner(compileWorkflow(plan, judgeOf([(s) => s === 503, (s) => s === 409])), async (input): Promise<StepOutcome> => {
      started += 1;
      const n = calls.get(input.stepId) ?? 0;
      calls.set(input.stepId, n + 1);
      const statusCode = script[input.stepId]![Math.min(n, 2)]!;
      await Promise.resolve();
      settled += 1;
      return { statusCode, ok: statusCode === 200, dryRun: false, outputs: {} };
    });
    const observed: Seen[] = [];
    const microsteps: Seen[] = [];
    const read = (snapshot: { value: unknown; context: WorkflowContext }): Seen => ({
      value: JSON.stringify(snapshot.value),
      runs: snapshot.context.runs,
      retries: snapshot.context.retries,
      records: snapshot.context.records.length,
      started,
      settled,
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, {
      input: { inputs: {}, maxSteps: 50 },
      clock,
      inspect: (event) => {
        if (event.type === '@xstate.microstep') microsteps.push(read(event.snapshot as never));
      },
    });
    const done = new Promise<void>((resolve) => {
      actor.subscribe((snapshot) => {
        observed.push(read(snapshot));
        if (snapshot.value !== null && typeof snapshot.value === 'object' && Object.values(snapshot.value)[0] === 'backoff') {
          setImmediate(() => clock.increment(snapshot.context.retryDelayMs));
        }
        if (snapshot.status === 'done') resolve();
      });
    });
    actor.start();
    await done;

    for (const seen of [...observed, ...microsteps]) {
      // Every settled run is recorded by the transition its outcome drives, before anyone sees it.
      expect(seen.records).toBe(seen.settled);
      // A run is counted when its step is entered: the one in flight, and every one before it.
      expect(seen.runs).toBe(seen.value.includes('backoff') || seen.value === '"succeeded"' ? seen.settled : seen.settled + 1);
    }
    expect(observed.map((s) => [s.value, s.runs, s.retries, s.records])).toEqual([
      ['{"s0_a":"calling"}', 1, 0, 0],
      ['{"s0_a":"backoff"}', 1, 1, 1],
      ['{"s0_a":"calling"}', 2, 1, 1],
      ['"s1_b"', 3, 0, 2],
      ['{"s0_a":"calling"}', 4, 0, 3],
      ['"s1_b"', 5, 0, 4],
      ['"succeeded"', 5, 0, 5],
    ]);
    // The final context holds the same objects the snapshots did, with every run recorded.
    expect(actor.getSnapshot().context.records.map((r) => [r.stepId, r.status])).toEqual([
      ['a', 503],
      ['a', 200],
      ['b', 409],
      ['a', 200],
      ['b', 200],
    ]);
  });
});
