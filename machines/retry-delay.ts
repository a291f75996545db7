/** Longest sleep of an Arazzo retry action, in seconds. */
export const MAX_RETRY_SLEEP_SECONDS = 60;

/**
 * Seconds to wait before an Arazzo retry: `retryAfter`, or a longer HTTP Retry-After of the failed
 * response, clamped to [0, 60].
 */
export function retryDelaySeconds(retryAfter = 0, retryAfterHeader?: number): number {
  const wanted = Math.max(Number.isFinite(retryAfter) ? retryAfter : 0, retryAfterHeader ?? 0);
  return Math.min(Math.max(wanted, 0), MAX_RETRY_SLEEP_SECONDS);
}
