/** How often and how long the device code login polls (RFC 8628 §3.2, §3.5): policy as pure functions. */

/** RFC 8628 §3.2: the interval to use when the server sends none. */
export const DEFAULT_INTERVAL_S = 5;
/** No server can make tool poll more often than this (an `interval` of 0 would be a busy loop). */
export const MIN_INTERVAL_S = 1;
/** Nor less often: a huge `interval` or many `slow_down`s would leave the user waiting in silence. */
export const MAX_INTERVAL_S = 60;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the polling interval. */
export const SLOW_DOWN_S = 5;
/** How long to poll when the device authorization response has no `expires_in`. */
export const DEFAULT_LIFETIME_S = 15 * 60;
/** The longest a login is polled for, whatever `expires_in` says. */
export const MAX_LIFETIME_S = 30 * 60;

/** Seconds between polls: the server's `interval` kept within 1..60, or 5 when it sent none. */
export function pollIntervalS(serverInterval: number | undefined): number {
  if (serverInterval === undefined) return DEFAULT_INTERVAL_S;
  return Math.min(Math.max(serverInterval, MIN_INTERVAL_S), MAX_INTERVAL_S);
}

/** The interval after a `slow_down`: 5 seconds more, never past the ceiling. */
export function slowedDownS(intervalS: number): number {
  return Math.min(intervalS + SLOW_DOWN_S, MAX_INTERVAL_S);
}

/** Seconds to keep polling: the code's `expires_in` up to 30 min, or 15 min when it is absent or 0. */
export function pollingLifetimeS(expiresIn: number | undefined): number {
  if (expiresIn === undefined || expiresIn <= 0) return DEFAULT_LIFETIME_S;
  return Math.min(expiresIn, MAX_LIFETIME_S);
}
