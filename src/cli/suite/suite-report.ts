/**
 * The suite report of `arazzo test --report` and `arazzo merge-reports --report`: the summary's
 * counts and figures, the latency histograms (so that shards merge exactly) and the failed runs,
 * at most MAX_FAILURES of them, so that the report's size does not grow with the runs. Pure: data
 * in, data out; suite-reports.ts writes it.
 */
import type { StatsData, StatsFigures } from '../../suite/latency.js';
import type { ThresholdVerdict } from '../../suite/thresholds.js';

/** The `format` of a suite report: merge-reports reads only files that carry it. */
export const SUITE_REPORT_FORMAT = 'tool-suite-report/1' as const;

/** The most failed runs a report lists; the others are counted in `failuresOmitted`. */
export const MAX_FAILURES = 1000;

/** A shard: this process ran the runs at positions p with p % total === index - 1. */
export interface Shard {
  index: number;
  total: number;
}

/** A suite report, as written and as merge-reports reads it back. */
/** What a suite counts: its summary line, its JSON summary and its report say the same. */
export interface SuiteTally {
  passed: number;
  failed: number;
  skipped: number;
  /** Runs --bail or an interruption left unstarted. */
  notRun: number;
  /** Runs --resume found already finished. */
  resumed?: number;
  /** Starts --rate gave up because --concurrency runs were in flight. */
  dropped?: number;
}

export interface SuiteReport extends SuiteTally {
  format: typeof SUITE_REPORT_FORMAT;
  durationMs: number;
  startedAt: string;
  endedAt: string;
  documents: string[];
  /** The shard one `arazzo test` ran. */
  shard?: Shard;
  /** The shards merge-reports merged, in the order given. */
  shards?: Shard[];
  /** merge-reports: how many files of each kind it read. */
  inputs?: { reports: number; results: number; junit: number };
  /** merge-reports: runs (or testcases) found in more than one file, counted once. */
  duplicates?: number;
  stats: StatsFigures;
  thresholds?: ThresholdVerdict[];
  statsData: StatsData;
  /** The failed runs as the summary lists them (resultRecord), the first MAX_FAILURES. */
  failures: Array<Record<string, unknown>>;
  /** Failed runs beyond MAX_FAILURES, not listed. */
  failuresOmitted?: number;
}

/** The failed runs a report lists: the first MAX_FAILURES kept, the rest only counted. */
export class FailureList {
  readonly kept: Array<Record<string, unknown>> = [];
  omitted = 0;

  constructor(private readonly cap = MAX_FAILURES) {}

  add(failure: Record<string, unknown>): void {
    if (this.kept.length < this.cap) this.kept.push(failure);
    else this.omitted++;
  }

  /** `failures`, and `failuresOmitted` when some were left out, as a report holds them. */
  fields(): Pick<SuiteReport, 'failures' | 'failuresOmitted'> {
    return { failures: this.kept, ...(this.omitted > 0 ? { failuresOmitted: this.omitted } : {}) };
  }
}

/** Whether a parsed JSON value is a suite report (its format, counts and histograms), so that merge-reports can trust its fields. */
export function isSuiteReport(value: unknown): value is SuiteReport {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const report = value as Record<string, unknown>;
  const counts = ['passed', 'failed', 'skipped', 'notRun', 'durationMs'].every((key) => typeof report[key] === 'number');
  const data = report.statsData as Record<string, unknown> | undefined;
  const histograms = typeof data === 'object' && data !== null && typeof data.runs === 'object' && typeof data.requests === 'object' && Array.isArray(data.workflows);
  return report.format === SUITE_REPORT_FORMAT && counts && histograms && typeof report.startedAt === 'string' && typeof report.endedAt === 'string' && Array.isArray(report.documents) && Array.isArray(report.failures);
}
