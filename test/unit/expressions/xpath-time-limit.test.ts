/**
 * XPath criteria and XML replacement targets are evaluated under a time limit (issue 23, item 12):
 * fontoxpath runs matches(), replace() and tokenize() and its loops on the main thread, where
 * `//a[matches(., '(a{1,1000}){1,1000}x')]` on an 11-character payload ran past 120 s (4.9 GB at
 * 4000) and past SIGTERM. Bounds are generous for a loaded 2-core machine: 10 s against a limit of 1 s.
 */
import { describe, expect, it } from '@jest/globals';
import { loadCriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { TimeLimitError, withinTimeLimit } from '../../../src/expressions/time-limit.js';
import { xpathHolds, XPATH_TIME_LIMIT_MS } from '../../../src/expressions/xpath-criterion.js';
import { applyReplacements, ReplacementError } from '../../../src/plan/apply-replacements.js';

const xpath = (await loadCriterionLibraries(['xpath'])).xpath!;
const EXPLODING = "//a[matches(., '(a{1,1000}){1,1000}x')]";
const STOPPED = /the expression ran for more than 1 s and was stopped \(a regex that backtracks without end in matches\(\), replace\(\) or tokenize\(\), or a loop over too many items, never finishes\)/;

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = Date.now();
  const value = work();
  return { value, ms: Date.now() - started };
}

describe('XPath under a time limit', () => {
  it('has the limit of a regex criterion', () => {
    expect(XPATH_TIME_LIMIT_MS).toBe(1000);
  });

  it('stops a replacement target whose matches() never finishes: the step fails naming the target', () => {
    const { value: error, ms } = timed(() => {
      try {
        applyReplacements('<a>aaaa</a>', [{ target: EXPLODING, value: 'b' }], 'application/xml', xpath);
      } catch (caught) {
        return caught;
      }
      return undefined;
    });
    expect(ms).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(ReplacementError);
    expect((error as Error).message).toMatch(new RegExp(`^replacement target ${JSON.stringify(EXPLODING).replace(/[()[\]{}.,^$|?*+\\]/g, '\\$&')}: `));
    expect((error as Error).message).toMatch(STOPPED);
  });

  it('stops an xpath criterion whose matches() never finishes: it does not hold, and says why', () => {
    const { value: verdict, ms } = timed(() => xpathHolds(xpath, EXPLODING, '<a>aaaa</a>'));
    expect(ms).toBeLessThan(10_000);
    expect(verdict.holds).toBe(false);
    expect(verdict.reason).toMatch(STOPPED);
  });

  it('stops a loop over too many items, and evaluates the next expression as before', () => {
    const { value: verdict, ms } = timed(() => xpathHolds(xpath, 'count(for $i in 1 to 1000000000 return $i) > 0', '<a/>'));
    expect(ms).toBeLessThan(10_000);
    expect(verdict.reason).toMatch(STOPPED);
    expect(xpathHolds(xpath, "//a[matches(., '^b+$')]", '<a>bbb</a>')).toEqual({ holds: true });
    expect(applyReplacements('<r><a>1</a></r>', [{ target: '//a', value: 2 }], 'application/xml', xpath)).toBe('<r><a>2</a></r>');
  });
});

describe('withinTimeLimit', () => {
  it('returns what the work returns and throws what it throws', () => {
    expect(withinTimeLimit(() => 42, 1000)).toBe(42);
    expect(() => withinTimeLimit(() => {
      throw new RangeError('no');
    }, 1000)).toThrow(RangeError);
  });

  it('stops a regex that backtracks without end, on this thread', () => {
    const { value: error, ms } = timed(() => {
      try {
        withinTimeLimit(() => /^(a|a)+$/.test(`${'a'.repeat(56)}!`), 200);
      } catch (caught) {
        return caught;
      }
      return undefined;
    });
    expect(error).toBeInstanceOf(TimeLimitError);
    expect((error as TimeLimitError).limitMs).toBe(200);
    expect(ms).toBeLessThan(10_000);
  });
});
