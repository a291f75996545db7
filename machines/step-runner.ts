/**
 * The actor that runs step bodies. It lives as long as the workflow (invoked once, at the root):
 * each `calling` state sends it a `run` event, and it answers with `runStep.done` or
 * `runStep.error`. Spawning and stopping a promise actor per step run cost a quarter to a third of
 * the machine's run time (an actor, a mailbox and an abort controller per run, and more snapshots).
 */
import { fromCallback } from 'xstate';
import type { RunStepInput, StepOutcome } from './types.js';

/** Runs one step body (src/run's executor; fakes in tests). `signal` aborts when the workflow is stopped mid-run. */
export type StepRunner = (input: RunStepInput, signal: AbortSignal) => Promise<StepOutcome>;

/** What the machine sends the runner to start a step run. */
export interface RunEvent {
  type: 'run';
  input: RunStepInput;
}

export const RUN_STEP_DONE = 'runStep.done';
export const RUN_STEP_ERROR = 'runStep.error';

/** What the runner sends back when a step run settles. */
export type RunStepEvent = { type: typeof RUN_STEP_DONE; output: StepOutcome } | { type: typeof RUN_STEP_ERROR; error: unknown };

/**
 * The runner actor over `run`. One run is in flight at a time (the machine waits in `calling`).
 * Stopping the actor (the workflow ended or was interrupted) aborts a run still in flight, and its
 * result is then dropped, as a stopped promise actor's would be.
 */
export function stepRunnerActor(run: StepRunner) {
  return fromCallback<RunEvent>(({ sendBack, receive }) => {
    let inFlight: AbortController | undefined;
    receive((event) => {
      const controller = new AbortController();
      inFlight = controller;
      const settled = (answer: RunStepEvent) => {
        if (inFlight !== controller) return;
        inFlight = undefined;
        sendBack(answer);
      };
      started(() => run(event.input, controller.signal)).then(
        (output) => settled({ type: RUN_STEP_DONE, output }),
        (error: unknown) => settled({ type: RUN_STEP_ERROR, error }),
      );
    });
    return () => {
      inFlight?.abort();
      inFlight = undefined;
    };
  });
}

/** `start()`'s promise, or a rejected one when it throws before returning a promise. */
function started<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error);
  }
}
