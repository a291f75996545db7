/**
 * RFC 9535's `match()` and `search()` for json-p3, with the regex run by the RegexTester given
 * (the run's worker thread, src/execute/regex-worker.ts) under its time limit. json-p3's own functions test the pattern on the main
 * thread, where a document's pattern that backtracks without end (`(a+)+b` on a long string)
 * would hang the run past Ctrl-C. The pattern's validity (an I-Regexp, RFC 9485) is still
 * json-p3's to decide: its function, with errors on, is asked about the empty string, which no
 * pattern backtracks on.
 */
import type { JSONPathEnvironment } from 'json-p3';
import type { RegexTester } from './regex-tester.js';

interface FilterFunction {
  argTypes: unknown[];
  returnType: unknown;
  call(...args: unknown[]): unknown;
}

type FunctionClass = new (options: { throwErrors?: boolean; cacheSize?: number }) => FilterFunction;

/**
 * Replaces `match` and `search` in `env` (its own function register, not a shared one) by functions
 * whose regex `tester` runs. A pattern stopped by the time limit does not match; `onStopped` is told why.
 */
export function guardRegexFunctions(env: JSONPathEnvironment, tester: RegexTester, onStopped: (reason: string) => void = () => undefined): void {
  for (const [name, full] of [
    ['match', true],
    ['search', false],
  ] as const) {
    const original = env.functionRegister.get(name) as FilterFunction | undefined;
    if (original === undefined) continue;
    const checker = new (original.constructor as FunctionClass)({ throwErrors: true, cacheSize: 0 });
    // A pattern stopped once is not run again (on the next node, or the next step): an array of
    // long strings would otherwise cost the time limit once per element.
    const stopped = new Set<string>();
    const guarded: FilterFunction = {
      argTypes: original.argTypes,
      returnType: original.returnType,
      call(value: unknown, pattern: unknown): boolean {
        if (typeof value !== 'string' || typeof pattern !== 'string') return false;
        try {
          checker.call('', pattern);
        } catch {
          return false;
        }
        if (stopped.has(pattern)) return false;
        const verdict = tester.test(ecmaScriptPattern(pattern, full), value);
        if (verdict.reason !== undefined) {
          stopped.add(pattern);
          onStopped(`jsonpath ${name}(): ${verdict.reason}; the pattern is not run again in this run`);
        }
        return verdict.holds;
      },
    };
    env.functionRegister.set(name, guarded as never);
  }
}

/**
 * An I-Regexp as an ECMAScript pattern (RFC 9485, section 5.3): `.` outside a character class
 * matches any character but CR and LF, a surrogate pair counting as one; `match()` must match the
 * whole string.
 */
export function ecmaScriptPattern(pattern: string, full: boolean): string {
  let out = '';
  let escaped = false;
  let inClass = false;
  for (const ch of pattern) {
    if (escaped) escaped = false;
    else if (ch === '\\') escaped = true;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '.' && !inClass) {
      out += '(?:(?![\\r\\n])\\P{Cs}|\\p{Cs}\\p{Cs})';
      continue;
    }
    out += ch;
  }
  return full ? `^(?:${out})$` : out;
}
