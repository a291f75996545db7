/** Waiting that Ctrl-C can interrupt. */

/** Sleeps `ms`; resolves true when the time passed, false as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = (): void => done(false);
    const timer = setTimeout(done, ms, true);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `work`'s outcome, or a rejection with `aborted()` as soon as `signal` aborts (the work itself is left to finish). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, aborted: () => Error): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
