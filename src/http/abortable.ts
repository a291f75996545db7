/** Waiting that Ctrl-C can interrupt. */

/**
 * The handlers waiting on each signal. A signal gets one listener of its own, however many waits
 * come and go: a step run's requests all wait on the one signal of their workflow, and each
 * `addEventListener` and `removeEventListener` on Node 20's AbortSignal costs ~10 µs, ~2% of a
 * request to a local server.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `handler` once when `signal` aborts, unless the returned function is called first, as a
 * listener added with `once` and removed with removeEventListener would be: handlers run in the
 * order they started waiting, and one stopped by an earlier handler of the same abort does not
 * run. Like addEventListener, a signal that has already aborted never calls it: check
 * `signal.aborted` first. A handler must not throw (tool's settle a promise): unlike EventTarget's
 * listeners, one that throws keeps the later ones from running.
 */
export function whenAborted(signal: AbortSignal, handler: () => void): () => void {
  let handlers = waiting.get(signal);
  if (handlers === undefined) {
    const waitingOnSignal = new Set<() => void>();
    handlers = waitingOnSignal;
    waiting.set(signal, waitingOnSignal);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of [...waitingOnSignal]) {
          // Stopped by an earlier handler of this abort: it does not run.
          if (waitingOnSignal.delete(call)) call();
        }
      },
      { once: true },
    );
  }
  // A handler of its own per wait: the same function waiting twice is called twice.
  const once = (): void => handler();
  const waitingNow = handlers;
  waitingNow.add(once);
  return () => {
    waitingNow.delete(once);
  };
}

/** Sleeps `ms`; resolves true when the time passed, false as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean): void => {
      clearTimeout(timer);
      stopWaiting?.();
      resolve(completed);
    };
    const timer = setTimeout(done, ms, true);
    const stopWaiting = signal && whenAborted(signal, () => done(false));
  });
}

/** `work`'s outcome, or a rejection with `aborted()` as soon as `signal` aborts (the work itself is left to finish). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, aborted: () => Error): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const stopWaiting = whenAborted(signal, () => reject(aborted()));
    work.then(
      (value) => {
        stopWaiting();
        resolve(value);
      },
      (error: unknown) => {
        stopWaiting();
        reject(error);
      },
    );
  });
}
