/**
 * Retry sleeps are XState delays on the actor's clock. As XState's own clock tests do, these
 * advance a SimulatedClock to one millisecond before the delay and check the step still waits in
 * `backoff`, then one more and check it moved on; a machine that ignored or shortened a delay
 * fails here.
 */
import { describe, expect, it } from '@jest/globals';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { compileWorkflow } from '../../machines/compile-workflow.js';
import type { StepOutcome } from '../../machines/types.js';
import { action, judgeOf, step, withRunner } from './harness.js';

const BACKOFF = 's0_a.backoff';
const CALLING = 's0_a.calling';

/** Starts a one-step workflow whose step answers 503 and then 200, on a simulated clock; resolves once it waits in `backoff`. */
async function startRetrying(retryAfterSeconds: number, retryAfterHeaderSeconds?: number) {
  const plan = { workflowId: 'wf', steps: [step('a', { onFailure: [action('retry', { retryLimit: 1, retryAfterSeconds })] })] };
  let runs = 0;
  const machine = withRunner(compileWorkflow(plan, judgeOf([])), async (): Promise<StepOutcome> => {
    runs += 1;
    if (runs > 1) return { statusCode: 200, ok: true, dryRun: false, outputs: {} };
    return { statusCode: 503, ok: false, dryRun: false, outputs: {}, reason: 'HTTP 503', retryAfterHeaderSeconds };
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { inputs: {}, maxSteps: 10 }, clock });
  actor.start();
  await waitFor(actor, (snapshot) => snapshot.matches(BACKOFF));
  return { actor, clock, runs: () => runs };
}

describe('retry delays on the clock', () => {
  it('waits retryAfter seconds in backoff before running the step again', async () => {
    const { actor, clock, runs } = await startRetrying(2);
    expect(actor.getSnapshot().context.retryDelayMs).toBe(2000);
    clock.increment(1999);
    expect(actor.getSnapshot().matches(BACKOFF)).toBe(true);
    expect(runs()).toBe(1);
    clock.increment(1);
    expect(actor.getSnapshot().matches(CALLING)).toBe(true);
    expect(runs()).toBe(2);
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('succeeded');
  });

  it('waits for a longer Retry-After header instead of retryAfter', async () => {
    const { actor, clock } = await startRetrying(1, 5);
    clock.increment(4999);
    expect(actor.getSnapshot().matches(BACKOFF)).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches(CALLING)).toBe(true);
  });

  it('keeps retryAfter when the Retry-After header is shorter', async () => {
    const { actor, clock } = await startRetrying(3, 1);
    clock.increment(2999);
    expect(actor.getSnapshot().matches(BACKOFF)).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches(CALLING)).toBe(true);
  });

  it('waits at most 60 seconds', async () => {
    const { actor, clock } = await startRetrying(600);
    clock.increment(59_999);
    expect(actor.getSnapshot().matches(BACKOFF)).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches(CALLING)).toBe(true);
  });
});
