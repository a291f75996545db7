/**
 * JSONPath match() and search() run a document's regex on the worker thread, under the time
 * limit: a pattern that backtracks without end stops, and the rest of RFC 9535's behaviour stays
 * (the compliance suite runs through the same functions: test/unit/plan/jsonpath-compliance.test.ts).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { loadCriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { compileJsonPath, jsonPathValues } from '../../../src/expressions/jsonpath-criterion.js';
import { ecmaScriptPattern } from '../../../src/expressions/jsonpath-regex-functions.js';
import { NO_REGEX_TESTER, type RegexTester } from '../../../src/expressions/regex-tester.js';
import { createRegexWorker } from '../../../src/execute/regex-worker.js';

describe('JSONPath regex functions', () => {
  const regex = createRegexWorker();
  afterAll(() => regex.stop());

  it('stops a backtracking pattern instead of hanging, and it does not match', async () => {
    const { jsonpath } = await loadCriterionLibraries(['jsonpath'], { regex });
    const evil = 'a'.repeat(40);
    for (const fn of ['match', 'search']) {
      const started = Date.now();
      const query = compileJsonPath(jsonpath!, `$[?${fn}(@, '(a+)+b')]`);
      expect(jsonPathValues(query, [evil])).toEqual([]);
      expect(Date.now() - started).toBeLessThan(8000);
    }
  });

  it('runs a stopped pattern only once: an array of long strings costs one time limit, not one per element', async () => {
    const { jsonpath } = await loadCriterionLibraries(['jsonpath'], { regex });
    const query = compileJsonPath(jsonpath!, `$[?search(@, '(x+)+y')]`);
    const started = Date.now();
    expect(jsonPathValues(query, ['x'.repeat(40), 'x'.repeat(41), 'x'.repeat(42), 'x'.repeat(43)])).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it('gives all the tests of one evaluation one time limit: a pattern just under the limit on each string stops after the limit in all (issue 23, item 12)', async () => {
    // Each test takes 300 ms of the limit it is given, as (a+)+b on 23 characters did on a slow
    // machine: before, 50 strings cost 50 full tests (15 s, past SIGTERM), one limit each.
    const limits: Array<number | undefined> = [];
    const slow: RegexTester = {
      test(_pattern, _text, limitMs) {
        limits.push(limitMs);
        const allowed = limitMs ?? 1000;
        const until = performance.now() + Math.min(300, allowed);
        while (performance.now() < until) {
          // busy, as a backtracking regex is
        }
        return allowed < 300 ? { holds: false, stopped: true, reason: 'stopped' } : { holds: false };
      },
    };
    const warnings: string[] = [];
    const { jsonpath } = await loadCriterionLibraries(['jsonpath'], { regex: slow, warn: (message) => warnings.push(message) });
    const query = compileJsonPath(jsonpath!, `$[?search(@, '(a+)+b')]`);
    const started = Date.now();
    expect(jsonPathValues(query, Array.from({ length: 50 }, () => 'a'.repeat(23)))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(limits.length).toBeLessThanOrEqual(5);
    expect(limits.every((limit) => limit !== undefined && limit <= 1000)).toBe(true);
    expect(warnings).toEqual([`jsonpath search(): the regexes of this evaluation ran for more than 1 s in all and were stopped; the pattern is not run again in this run`]);
    // The next evaluation has a whole limit of its own.
    expect(jsonPathValues(compileJsonPath(jsonpath!, `$[?search(@, 'x')]`), ['x'])).toEqual([]);
    expect(limits.at(-1)).toBe(1000);
  });

  it('keeps RFC 9535 semantics: match() is anchored, search() is not, . skips line breaks, a non-I-Regexp does not match', async () => {
    const { jsonpath } = await loadCriterionLibraries(['jsonpath'], { regex });
    const values = (q: string, data: unknown) => jsonPathValues(compileJsonPath(jsonpath!, q), data);
    expect(values(`$[?match(@, 'ab')]`, ['ab', 'xab', 'abx'])).toEqual(['ab']);
    expect(values(`$[?search(@, 'ab')]`, ['ab', 'xab', 'abx', 'b'])).toEqual(['ab', 'xab', 'abx']);
    expect(values(`$[?match(@, 'a.b')]`, ['a\nb', 'axb'])).toEqual(['axb']);
    expect(values(`$[?match(@, '\\\\d')]`, ['1'])).toEqual([]);
    expect(values(`$[?match(@.x, 'a')]`, [{ x: 1 }, { x: 'a' }])).toEqual([{ x: 'a' }]);
  });

  it('runs the regex with the tester its libraries were loaded with, never a shared one', async () => {
    const seen: string[] = [];
    const spy: RegexTester = { test: (pattern, text) => (seen.push(`${pattern} on ${text}`), { holds: text === 'yes' }) };
    const [spied, none] = await Promise.all([loadCriterionLibraries(['jsonpath'], { regex: spy }), loadCriterionLibraries(['jsonpath'])]);
    expect(jsonPathValues(compileJsonPath(spied.jsonpath!, `$[?search(@, 'e')]`), ['yes', 'no'])).toEqual(['yes']);
    expect(seen).toEqual(['e on yes', 'e on no']);
    // Libraries loaded without a tester (validate, graph) run no regex: nothing matches.
    expect(jsonPathValues(compileJsonPath(none.jsonpath!, `$[?search(@, 'e')]`), ['yes'])).toEqual([]);
    expect(NO_REGEX_TESTER.test('e', 'yes').holds).toBe(false);
    expect(seen).toHaveLength(2);
  });

  it('maps an I-Regexp dot to any character but CR and LF, a surrogate pair as one', () => {
    expect(ecmaScriptPattern('a.[.]', true)).toBe('^(?:a(?:(?![\\r\\n])\\P{Cs}|\\p{Cs}\\p{Cs})[.])$');
    expect(ecmaScriptPattern('\\.', false)).toBe('\\.');
  });
});
