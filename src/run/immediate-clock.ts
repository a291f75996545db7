/**
 * The clock the workflow actor runs on: real timers, except that a delay of 0 ms (a retry with
 * `retryAfter: 0`) runs on the next turn of the event loop instead of after Node's 1 ms minimum.
 * A replay, which sends nothing, skips every wait (`waits: false`).
 */
export interface ActorClock {
  setTimeout(fn: (...args: unknown[]) => void, timeout: number): unknown;
  clearTimeout(id: unknown): void;
}

type Handle = { immediate: NodeJS.Immediate } | { timeout: NodeJS.Timeout };

/** A clock for createActor whose zero delays (every delay, with `waits: false`) do not wait for a timer tick. */
export function immediateClock({ waits = true }: { waits?: boolean } = {}): ActorClock {
  return {
    setTimeout(fn, timeout): Handle {
      return timeout <= 0 || !waits ? { immediate: setImmediate(fn) } : { timeout: setTimeout(fn, timeout) };
    },
    clearTimeout(id) {
      const handle = id as Handle;
      if ('immediate' in handle) clearImmediate(handle.immediate);
      else clearTimeout(handle.timeout);
    },
  };
}
