/**
 * A time limit for synchronous work a document decides: an XPath evaluated by fontoxpath, an
 * inputs schema checked by Ajv. Both run a document's regexes (`matches()`, `pattern`) and loops
 * (`for $i in 1 to 100000000`) on the main thread, where a hostile one would block the event loop,
 * so that neither Ctrl-C nor SIGTERM could end the run (issue 23, item 12). V8 stops the work when
 * the limit passes, inside a regex too, through `node:vm`'s timeout (a watchdog thread that
 * terminates the running JavaScript); the work runs in this realm, only started from a script.
 */
import { createContext, Script } from 'node:vm';

/** Thrown by withinTimeLimit when the work ran past its limit and was stopped. */
export class TimeLimitError extends Error {
  override name = 'TimeLimitError';
  constructor(readonly limitMs: number) {
    super(`it ran for more than ${limitMs / 1000} s and was stopped`);
  }
}

const START = new Script('work()', { filename: 'tool-time-limit' });

/**
 * Runs `work` now, on this thread, and returns what it returns; throws what it throws, and
 * TimeLimitError when it runs longer than `limitMs`. Work stopped by the limit is abandoned where it
 * stood: a library's state it was changing may be half changed.
 */
export function withinTimeLimit<T>(work: () => T, limitMs: number): T {
  // One context for every call (making one costs ~1.5 ms); `work` is swapped in, and put back for a nested call.
  const shared = (context ??= createContext({ work: undefined }) as { work: unknown });
  const previous = shared.work;
  shared.work = work;
  try {
    return START.runInContext(shared, { timeout: limitMs, breakOnSigint: false }) as T;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new TimeLimitError(limitMs);
    throw error;
  } finally {
    shared.work = previous;
  }
}

let context: { work: unknown } | undefined;
