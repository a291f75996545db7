/**
 * The actor that runs step bodies. It lives as long as the workflow (invoked once, at the root):
 * each step's `startRun` action sends it a `run` event, and it answers with `runStep.done`.
 * Spawning and stopping a promise actor per step run cost a quarter to a third of the machine's
 * run time (an actor, a mailbox and an abort controller per run, and more snapshots).
 */
import { fromCallback } from 'xstate';
import type { RunStepInput, StepOutcome } from './types.js';

/** Runs one step body (src/run's executor; fakes in tests). `signal` aborts when the workflow is stopped mid-run. */
export type StepRunner = (input: RunStepInput, signal: AbortSignal) => Promise<StepOutcome>;

/**
 * What the machine sends the runner to start a step run. With `budgetSpent`, the step budget
 * (`--tool-max-steps`) was already used up when the step was entered: nothing runs, and the
 * runner answers with a `runStep.budgetSpent` event instead of an outcome.
 */
export interface RunEvent {
  type: 'run';
  input: RunStepInput;
  budgetSpent?: true;
}

export const RUN_STEP_DONE = 'runStep.done';

/**
 * What the runner answers a run event with when the budget was spent: nothing ran. The workflow's
 * root handles it (it fails the workflow with STEP_BUDGET_EXHAUSTED, naming `stepId`), so no step
 * state needs a transition of its own for it.
 */
export const RUN_BUDGET_SPENT = 'runStep.budgetSpent';

/** What the runner sends back when a step run settles; a crash of the step body is an outcome too (`crashed`). */
export type RunStepEvent = { type: typeof RUN_STEP_DONE; output: StepOutcome };

/** The runner's answer to a run event that found the budget spent: the step that was to run. */
export type BudgetSpentEvent = { type: typeof RUN_BUDGET_SPENT; stepId: string };

/**
 * The runner actor over `run`. One run is in flight at a time (the machine waits in the step's
 * state). Stopping the actor
 * (the workflow ended or was interrupted) aborts the one signal all runs share, and a result that
 * arrives later is dropped, as a stopped promise actor's would be. A step body that throws (a bug)
 * answers with a crash outcome, which fails the step like any other failure.
 */
export function stepRunnerActor(run: StepRunner) {
  return fromCallback<RunEvent>(({ sendBack, receive }) => {
    const controller = new AbortController();
    let inFlight = false;
    let stopped = false;
    const settled = (output: StepOutcome): void => {
      inFlight = false;
      if (!stopped) sendBack({ type: RUN_STEP_DONE, output });
    };
    const crashed = (error: unknown): void => settled(crashOutcome(error));
    receive((event) => {
      inFlight = true;
      if (event.budgetSpent) {
        // Answered asynchronously, as a run is.
        const spent: BudgetSpentEvent = { type: RUN_BUDGET_SPENT, stepId: event.input.stepId };
        void Promise.resolve().then(() => {
          inFlight = false;
          if (!stopped) sendBack(spent);
        });
        return;
      }
      started(() => run(event.input, controller.signal)).then(settled, crashed);
    });
    return () => {
      stopped = true;
      // A run that has settled keeps an unaborted signal; only one still in flight is aborted.
      if (inFlight) controller.abort();
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

/** The outcome of a step body that threw: a failure whose reason is the error's message. */
export function crashOutcome(error: unknown): StepOutcome {
  return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason: error instanceof Error ? error.message : String(error), crashed: true };
}
