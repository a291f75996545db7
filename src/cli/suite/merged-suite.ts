/**
 * What merge-reports adds up: counts, latency series (the shards' histograms added, so that the
 * percentiles are those of every run, not an average of the shards'), documents, shards, the time
 * span and the failed runs, from whichever kind of file it counts. No I/O.
 */
import { createHash } from 'node:crypto';
import { addStatsData, SuiteLatency } from '../../suite/latency.js';
import { FailureList, type Shard, type SuiteReport } from './suite-report.js';
import type { JunitCase } from './merge-readers.js';
import type { RunLine } from './suite-junit.js';

/** The fields of a run the failures list keeps: a results line also holds its outputs and steps. */
const FAILURE_FIELDS = ['file', 'workflowId', 'row', 'iteration', 'status', 'durationMs', 'failure', 'reason'] as const;

export class MergedSuite {
  readonly counts = { passed: 0, failed: 0, skipped: 0, notRun: 0 };
  /** What only suite reports give: runs --resume found done, starts --rate dropped (undefined when no report had them). */
  resumed: number | undefined;
  dropped: number | undefined;
  readonly latency = new SuiteLatency();
  readonly documents = new Set<string>();
  /** The shards of the reports, each with its file and its suite (its documents, as one string). */
  readonly shards: Array<Shard & { path: string; suite: string }> = [];
  startedAt: number | undefined;
  endedAt: number | undefined;

  constructor(readonly failures: FailureList) {}

  /** A shard's suite report: counts added, histograms merged, failures appended (up to the cap). */
  addReport(report: SuiteReport, path: string): void {
    this.counts.passed += report.passed;
    this.counts.failed += report.failed;
    this.counts.skipped += report.skipped;
    this.counts.notRun += report.notRun;
    if (report.resumed !== undefined) this.resumed = (this.resumed ?? 0) + report.resumed;
    if (report.dropped !== undefined) this.dropped = (this.dropped ?? 0) + report.dropped;
    addStatsData(this.latency, report.statsData);
    for (const document of report.documents) this.documents.add(document);
    for (const shard of report.shards ?? (report.shard !== undefined ? [report.shard] : [])) this.shards.push({ ...shard, path, suite: JSON.stringify(report.documents) });
    this.widen(Date.parse(report.startedAt), Date.parse(report.endedAt));
    for (const failure of report.failures) this.failures.add(failure);
    this.failures.omitted += report.failuresOmitted ?? 0;
  }

  /** A run of a results file; its duration is the only figure it gives. */
  addRun(run: RunLine): void {
    this.count(run.file, run.workflowId ?? '(document)', run.status, run.durationMs);
    if (run.status === 'failed') this.failures.add(failureRecord(run));
  }

  /** A testcase of a JUnit file: its time is the only figure it gives. */
  addCase(testcase: JunitCase): void {
    const workflowId = /^(.*?)(?: \[row \d+\])?(?: #\d+)?$/.exec(testcase.name)![1]!;
    this.count(testcase.classname, workflowId, testcase.outcome, testcase.seconds * 1000);
    if (testcase.failure !== undefined) this.failures.add({ file: testcase.classname, workflowId: testcase.name, status: 'failed', durationMs: Math.round(testcase.seconds * 1000), failure: testcase.failure });
  }

  /**
   * Warnings about the shards of the reports: one given twice (its runs counted twice), some of n
   * missing. Shards of different suites (other documents) are told apart by their documents.
   */
  shardWarnings(): string[] {
    const warnings: string[] = [];
    const suites = new Map<string, Map<string, string>>();
    for (const shard of this.shards) {
      const name = `${shard.index}/${shard.total}`;
      const suite = suites.get(shard.suite) ?? new Map<string, string>();
      suites.set(shard.suite, suite);
      const earlier = suite.get(name);
      if (earlier !== undefined) warnings.push(`shard ${name} is in both ${earlier} and ${shard.path}: its runs are counted twice`);
      else suite.set(name, shard.path);
    }
    for (const suite of suites.values()) {
      const totals = new Set([...suite.keys()].map((name) => Number(name.split('/')[1])));
      if (totals.size !== 1) continue;
      const total = [...totals][0]!;
      const missing = Array.from({ length: total }, (_, i) => `${i + 1}/${total}`).filter((name) => !suite.has(name));
      if (missing.length > 0) warnings.push(`no report of shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (the suite of ${[...suite.values()][0]}): the merge does not cover every run`);
    }
    return warnings;
  }

  private count(file: string, workflowId: string, status: RunLine['status'], durationMs: number): void {
    this.counts[status]++;
    this.documents.add(file);
    if (status !== 'skipped') this.latency.recordRun(file, workflowId, durationMs, status === 'passed');
  }

  private widen(started: number, ended: number): void {
    if (Number.isFinite(started)) this.startedAt = Math.min(this.startedAt ?? started, started);
    if (Number.isFinite(ended)) this.endedAt = Math.max(this.endedAt ?? ended, ended);
  }
}

/** A run as the failures list gives it: the summary's fields, without a results line's outputs and steps. */
function failureRecord(run: RunLine): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key of FAILURE_FIELDS) if (run[key] !== undefined) record[key] = run[key];
  return record;
}

/**
 * The runs seen so far, by key, and the file each came from: a short hash of the key rather than
 * the key, so that the set of a 100 000-run merge stays a few megabytes.
 */
export class SeenRuns {
  private readonly seen = new Map<string, number>();

  /** Records `key` as read from file `from`; returns the file it was first read from when it was seen before. */
  firstFrom(key: string, from: number): number | undefined {
    const hash = createHash('sha1').update(key).digest('base64').slice(0, 16);
    const earlier = this.seen.get(hash);
    if (earlier === undefined) this.seen.set(hash, from);
    return earlier;
  }
}
