/** Transport backoff policy: how long to wait before a retry. */

export interface RetryDelayOptions {
  /** Backoff unit for the first retry, ms (default 100). */
  baseMs?: number;
  /** No sleep is longer than this, Retry-After included. */
  maxMs: number;
  /** Source of jitter in [0, 1) (default Math.random). */
  random?: () => number;
  /** Clock for HTTP-date Retry-After values (default Date.now). */
  now?: () => number;
}

/** Milliseconds to sleep before retry `attempt` (1-based): Retry-After when valid, else full-jitter exponential backoff; clamped to maxMs. */
export function retryDelayMs(attempt: number, retryAfterHeader: string | undefined, opts: RetryDelayOptions): number {
  const maxMs = Math.max(0, opts.maxMs);
  const retryAfter = retryAfterMs(retryAfterHeader, opts.now ?? Date.now);
  if (retryAfter !== undefined) return Math.min(retryAfter, maxMs);
  const ceiling = (opts.baseMs ?? 100) * 2 ** Math.max(0, attempt - 1);
  const random = opts.random ?? Math.random;
  return Math.min(Math.floor(random() * ceiling), maxMs);
}

/**
 * Retry-After as milliseconds from now: delta-seconds or an HTTP date (a date in the past is 0);
 * undefined when absent or malformed. The one parser of the header: transport retries and Arazzo
 * retry actions (execute-step.ts) both read it here. A repeated header counts by its first value.
 */
export function retryAfterMs(header: string | readonly string[] | undefined, now: () => number = Date.now): number | undefined {
  const first = typeof header === 'string' ? header : header?.[0];
  if (first === undefined) return undefined;
  const value = first.trim();
  if (value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date always names a month; this keeps Date.parse from reading "-5" as a year.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now());
}
