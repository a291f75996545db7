import { describe, expect, it } from '@jest/globals';
import { createRegexWorker } from '../../../src/execute/regex-worker.js';

describe('createRegexWorker', () => {
  it('matches with the u flag on a worker thread, started at the first test and ended by stop()', () => {
    const worker = createRegexWorker();
    try {
      expect(worker.running).toBe(false);
      expect(worker.test('^\\p{Lu}\\d+$', 'A42')).toEqual({ holds: true });
      expect(worker.running).toBe(true);
      expect(worker.test('^\\p{Lu}\\d+$', 'a42')).toEqual({ holds: false });
    } finally {
      worker.stop();
    }
    expect(worker.running).toBe(false);
  });

  it('stops a pattern that backtracks without end, and the next test still runs', () => {
    const worker = createRegexWorker();
    try {
      const started = Date.now();
      const verdict = worker.test('^(a+)+b$', 'a'.repeat(40), 200);
      expect(verdict.holds).toBe(false);
      expect(verdict.reason).toContain('was stopped');
      expect(worker.running).toBe(false);
      // Without the limit this takes minutes; with it, well under the jest timeout.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(worker.test('b$', 'aab')).toEqual({ holds: true });
    } finally {
      worker.stop();
    }
  });

  it('shares nothing between two workers: one stopped or timed out leaves the other running', () => {
    const first = createRegexWorker();
    const second = createRegexWorker();
    try {
      expect(first.test('a', 'a')).toEqual({ holds: true });
      expect(second.test('a', 'a')).toEqual({ holds: true });
      expect(first.test('^(a+)+b$', 'a'.repeat(40), 200).reason).toContain('was stopped');
      expect(first.running).toBe(false);
      expect(second.running).toBe(true);
      second.stop();
      expect(second.running).toBe(false);
      expect(first.test('b', 'b')).toEqual({ holds: true });
      expect(first.running).toBe(true);
    } finally {
      first.stop();
      second.stop();
    }
  });

  it('reports an invalid pattern as the reason, not an exception', () => {
    const worker = createRegexWorker();
    try {
      const verdict = worker.test('(', 'x');
      expect(verdict.holds).toBe(false);
      expect(verdict.reason).toMatch(/Invalid regular expression/);
    } finally {
      worker.stop();
    }
  });
});
