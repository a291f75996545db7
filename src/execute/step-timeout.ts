/**
 * Arazzo 1.1 step `timeout`: the step's request, its transport retries included, is aborted once
 * the step has taken that many milliseconds; the step then fails (status 0) and its failure chain
 * applies. The run's own signal (Ctrl-C) still aborts it as an interruption.
 */
export interface StepTimeout {
  /** Aborts when the run's signal does or the time is up. */
  readonly signal: AbortSignal;
  /** Whether it was the time that aborted it. */
  expired(): boolean;
  /** Stops the timer (the step completed). */
  clear(): void;
}

/** A timer of `ms` over the run's `signal`. */
export function startStepTimeout(signal: AbortSignal, ms: number): StepTimeout {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`step timeout of ${ms} ms`));
  }, ms);
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    clear() {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/** The reason of a step whose timeout aborted it. */
export function timeoutReason(ms: number): string {
  return `the step's timeout of ${ms} ms passed before its response arrived; the request was aborted`;
}
