import { describe, expect, it } from '@jest/globals';
import { testRegex } from '../../../src/expressions/regex-runner.js';

describe('testRegex', () => {
  it('matches with the u flag on a worker thread', () => {
    expect(testRegex('^\\p{Lu}\\d+$', 'A42')).toEqual({ holds: true });
    expect(testRegex('^\\p{Lu}\\d+$', 'a42')).toEqual({ holds: false });
  });

  it('stops a pattern that backtracks without end, and the next test still runs', () => {
    const started = Date.now();
    const verdict = testRegex('^(a+)+b$', 'a'.repeat(40), 200);
    expect(verdict.holds).toBe(false);
    expect(verdict.reason).toContain('was stopped');
    // Without the limit this takes minutes; with it, well under the jest timeout.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(testRegex('b$', 'aab')).toEqual({ holds: true });
  });
});
