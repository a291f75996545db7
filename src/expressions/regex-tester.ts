/**
 * The service that tests a document's regex against a text under a time limit. Regex criteria and
 * JSONPath's match() and search() are given one; the run's is a worker thread
 * (src/execute/regex-worker.ts), so a pattern that backtracks without end is stopped instead of
 * blocking the event loop.
 */

/** How long one regex test may run before it is stopped and the criterion does not hold. */
export const REGEX_TIME_LIMIT_MS = 1000;

/**
 * Whether the pattern matched; `reason` says why it was not run to the end (then it does not hold),
 * `stopped` that the time limit ended it.
 */
export type RegexVerdict = { holds: boolean; reason?: undefined; stopped?: undefined } | { holds: false; reason: string; stopped?: boolean };

export interface RegexTester {
  /**
   * Whether `pattern` (an ECMAScript regex source, `u` flag) matches `text`, waiting at most
   * `limitMs` (REGEX_TIME_LIMIT_MS by default). Synchronous.
   */
  test(pattern: string, text: string, limitMs?: number): RegexVerdict;
}

/** The tester of what only compiles or draws criteria (validate, graph): it runs no regex, and none holds. */
export const NO_REGEX_TESTER: RegexTester = {
  test: () => ({ holds: false, reason: 'regexes are not run here (no regex worker was given)' }),
};
