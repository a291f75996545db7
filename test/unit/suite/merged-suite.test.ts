/** merge-reports' sums: counts, and what only suite reports give (--resume's done runs, --rate's dropped starts). */
import { describe, expect, it } from '@jest/globals';
import { MergedSuite } from '../../../src/cli/suite/merged-suite.js';
import { FailureList, SUITE_REPORT_FORMAT, type SuiteReport } from '../../../src/cli/suite/suite-report.js';
import { SuiteLatency, statsData, statsFigures } from '../../../src/suite/latency.js';

function report(fields: Partial<SuiteReport>): SuiteReport {
  const latency = new SuiteLatency();
  return { format: SUITE_REPORT_FORMAT, passed: 1, failed: 0, skipped: 0, notRun: 0, durationMs: 10, startedAt: '2026-11-28T10:00:00.000Z', endedAt: '2026-11-28T10:00:01.000Z', documents: ['a.arazzo.yaml'], stats: statsFigures(latency, 1), statsData: statsData(latency), failures: [], ...fields };
}

describe('merge-reports sums', () => {
  it('adds the shards resumed and dropped runs when their reports have them, and leaves them out when none does', () => {
    const merged = new MergedSuite(new FailureList());
    merged.addReport(report({ resumed: 3, dropped: 1 }), 'one.json');
    merged.addReport(report({ resumed: 2 }), 'two.json');
    merged.addReport(report({}), 'three.json');
    expect([merged.counts.passed, merged.resumed, merged.dropped]).toEqual([3, 5, 1]);
    const plain = new MergedSuite(new FailureList());
    plain.addReport(report({}), 'one.json');
    expect([plain.resumed, plain.dropped]).toEqual([undefined, undefined]);
  });
});
