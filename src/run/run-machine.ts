import { createActor, type InspectionEvent } from 'xstate';
import type { WorkflowMachine } from '../../machines/compile-workflow.js';
import type { WorkflowContext, WorkflowInput } from '../../machines/types.js';
import { immediateClock, type ActorClock } from './immediate-clock.js';

/**
 * Runs the machine to a final state, or until `signal` aborts (then the actor is stopped and its
 * in-flight request aborted). Retry waits run on `clock` (real timers by default).
 */
export function runMachine(machine: WorkflowMachine, input: WorkflowInput, signal: AbortSignal, inspect?: (event: InspectionEvent) => void, clock: ActorClock = immediateClock()): Promise<{ context: WorkflowContext; interrupted: boolean }> {
  const actor = createActor(machine, inspect ? { input, inspect, clock } : { input, clock });
  return new Promise((resolve, reject) => {
    const finish = (interrupted: boolean) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ context: actor.getSnapshot().context, interrupted });
    };
    const onAbort = () => {
      actor.stop();
      finish(true);
    };
    actor.subscribe({
      next(snapshot) {
        if (snapshot.status === 'done') return finish(false);
      },
      error: reject,
    });
    if (signal.aborted) return finish(true);
    signal.addEventListener('abort', onAbort, { once: true });
    actor.start();
  });
}
