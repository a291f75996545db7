/**
 * RFC 9535's `match()` and `search()` for json-p3, with the regex run by the RegexTester given
 * (the run's worker thread, src/execute/regex-worker.ts) under its time limit. json-p3's own functions test the pattern on the main
 * thread, where a document's pattern that backtracks without end (`(a+)+b` on a long string)
 * would hang the run past Ctrl-C. The pattern's validity (an I-Regexp, RFC 9485) is still
 * json-p3's to decide: its function, with errors on, is asked about the empty string, which no
 * pattern backtracks on.
 */
import type { JSONPathEnvironment } from 'json-p3';
import { REGEX_TIME_LIMIT_MS, type RegexTester } from './regex-tester.js';

/**
 * One time limit for all the regexes one JSONPath evaluation tests: a filter over 600 strings
 * tests 600 times, and a limit per test let a pattern that takes just under it on each string run
 * for minutes (issue 23, item 12). The main thread waits for each test, so signals are handled
 * when the evaluation ends, at most the limit later.
 */
export interface RegexBudget {
  /** Runs `evaluate` (a query) with one budget for its tests; a nested call shares the outer one. */
  within<T>(evaluate: () => T): T;
  /** Milliseconds left for the next test: the whole limit outside `within`. */
  left(): number;
  /** Whether the running evaluation was already told its budget is spent (it is told once). */
  spent(): boolean;
}

/** A budget of `limitMs` (the regex time limit by default) per evaluation. */
export function createRegexBudget(limitMs: number = REGEX_TIME_LIMIT_MS): RegexBudget {
  let deadline: number | undefined;
  let told = false;
  return {
    within(evaluate) {
      if (deadline !== undefined) return evaluate();
      deadline = performance.now() + limitMs;
      told = false;
      try {
        return evaluate();
      } finally {
        deadline = undefined;
      }
    },
    left: () => (deadline === undefined ? limitMs : Math.max(0, deadline - performance.now())),
    spent() {
      const before = told;
      told = true;
      return before;
    },
  };
}

interface FilterFunction {
  argTypes: unknown[];
  returnType: unknown;
  call(...args: unknown[]): unknown;
}

type FunctionClass = new (options: { throwErrors?: boolean; cacheSize?: number }) => FilterFunction;

/**
 * Replaces `match` and `search` in `env` (its own function register, not a shared one) by functions
 * whose regex `tester` runs, all the tests of one evaluation within `budget`. A pattern stopped by
 * the time limit does not match; `onStopped` is told why.
 */
export function guardRegexFunctions(env: JSONPathEnvironment, tester: RegexTester, budget: RegexBudget, onStopped: (reason: string) => void = () => undefined): void {
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
        const left = budget.left();
        if (left < 1) {
          if (!budget.spent()) onStopped(`jsonpath ${name}(): the regexes of this evaluation ran for more than ${REGEX_TIME_LIMIT_MS / 1000} s in all and were stopped; the rest do not match`);
          return false;
        }
        const verdict = tester.test(ecmaScriptPattern(pattern, full), value, Math.ceil(left));
        if (verdict.reason !== undefined) {
          stopped.add(pattern);
          // A test cut short by what was left of the budget: say so, rather than "ran for more than 0.003 s".
          const why = verdict.stopped && left < REGEX_TIME_LIMIT_MS ? `the regexes of this evaluation ran for more than ${REGEX_TIME_LIMIT_MS / 1000} s in all and were stopped` : verdict.reason;
          if (!verdict.stopped || !budget.spent()) onStopped(`jsonpath ${name}(): ${why}; the pattern is not run again in this run`);
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
