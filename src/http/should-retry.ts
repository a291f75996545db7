/** Transport retry policy: which outcomes are worth sending the same request again. */

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

// Raw system codes and our own TransportError codes; ENOTFOUND (and DNS_FAILURE, which may
// hide it) is left out because a name that does not resolve will not resolve a second later.
const RETRY_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'CONNECTION_REFUSED',
  'CONNECTION_RESET',
  'TIMEOUT',
]);

export interface RetryOutcome {
  status?: number;
  errorCode?: string;
}

export interface RetryPolicy {
  retry: number;
  retryUnsafe: boolean;
}

/** Whether retry number `attempt` (1-based) should be made after `outcome`; never throws. */
export function shouldRetry(method: string, outcome: RetryOutcome, attempt: number, opts: RetryPolicy): boolean {
  if (attempt > opts.retry) return false;
  if (!opts.retryUnsafe && !IDEMPOTENT_METHODS.has(method.toUpperCase())) return false;
  if (outcome.errorCode !== undefined) return RETRY_ERROR_CODES.has(outcome.errorCode);
  return outcome.status !== undefined && RETRY_STATUSES.has(outcome.status);
}
