/** The `regex` criterion type (v2): an ECMAScript RegExp with the `u` flag, tested against the context value. */
import type { RegexTester, RegexVerdict } from './regex-tester.js';

/** Compiles a regex criterion's condition. Throws SyntaxError for an invalid pattern (a validation error). */
export function compileRegexCriterion(pattern: string): RegExp {
  return new RegExp(pattern, 'u');
}

/**
 * The text a regex or an XML parser reads from a context value: a string as is, bytes as UTF-8, a
 * number or boolean as text, an object or array as its JSON text; undefined for an absent or null value.
 */
export function contextText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  // A body of an unknown media type arrives as bytes: read them as UTF-8.
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * Whether the pattern matches the context value; an absent or null value does not hold. `tester`
 * runs the match under a time limit (the run's is a worker thread, src/execute/regex-worker.ts), so
 * a pattern that backtracks without end does not hold, with the reason, instead of hanging the run.
 */
export function regexHolds(tester: RegexTester, pattern: RegExp, value: unknown): RegexVerdict {
  const text = contextText(value);
  if (text === undefined) return { holds: false };
  return tester.test(pattern.source, text);
}
