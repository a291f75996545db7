/**
 * Latency figures of `arazzo test`: per workflow (its runs) and per step (its requests and
 * messages), count, errors and an HDR histogram of durations (hdr-histogram-js, microseconds,
 * three significant digits), so that percentiles cost the same memory after a million values as
 * after ten, and shard reports merge exactly (merge-reports adds their histograms).
 */
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';

/** An hour in microseconds: the longest duration told apart (longer ones are recorded as an hour). */
const HIGHEST_US = 3_600_000_000;

/** The figures of a series, in milliseconds, as the summary and the reports print them. */
export interface Figures {
  count: number;
  errors: number;
  /** errors / count (0 when count is 0). */
  errorRate: number;
  /** Of the durations recorded (a request that got no response has none). */
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** count over the suite's wall-clock time. */
  perSecond: number;
}

/** A series as a report file keeps it: enough to merge with another shard's and compute its figures again. */
export interface SeriesData {
  count: number;
  errors: number;
  /** The durations' HDR histogram, in microseconds, in HdrHistogram's compressed base64 form (empty when none was recorded). */
  histogram: string;
  /** The largest duration, in microseconds, exactly (the histogram keeps it only to its precision). */
  maxUs: number;
}

/** Count, errors and durations of one thing measured (a workflow's runs, a step's requests). */
export class Series {
  count = 0;
  errors = 0;
  private histogram: Histogram | undefined;
  private maxUs = 0;

  /** One more: its duration in milliseconds (undefined when it has none) and whether it succeeded. */
  record(durationMs: number | undefined, ok: boolean): void {
    this.count++;
    if (!ok) this.errors++;
    if (durationMs === undefined) return;
    const us = Math.min(HIGHEST_US, Math.max(1, Math.round(durationMs * 1000)));
    (this.histogram ??= newHistogram()).recordValue(us);
    if (us > this.maxUs) this.maxUs = us;
  }

  /** Adds another series (a shard's) into this one. */
  add(other: SeriesData): void {
    this.count += other.count;
    this.errors += other.errors;
    if (other.histogram === '') return;
    if (other.maxUs > this.maxUs) this.maxUs = other.maxUs;
    const histogram = decodeFromCompressedBase64(other.histogram);
    (this.histogram ??= newHistogram()).add(histogram);
    histogram.destroy();
  }

  figures(seconds: number): Figures {
    const h = this.histogram;
    // A percentile is its bucket's highest value, which can pass the largest value recorded: never past it.
    const at = (percentile: number) => (h === undefined ? 0 : ms(Math.min(h.getValueAtPercentile(percentile), this.maxUs)));
    return {
      count: this.count,
      errors: this.errors,
      errorRate: this.count === 0 ? 0 : round(this.errors / this.count, 4),
      p50: at(50),
      p90: at(90),
      p95: at(95),
      p99: at(99),
      max: ms(this.maxUs),
      mean: h === undefined ? 0 : ms(h.mean),
      perSecond: seconds > 0 ? round(this.count / seconds, 2) : 0,
    };
  }

  data(): SeriesData {
    return { count: this.count, errors: this.errors, histogram: this.histogram === undefined ? '' : encodeIntoCompressedBase64(this.histogram), maxUs: this.maxUs };
  }
}

function newHistogram(): Histogram {
  return build({ lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, autoResize: false });
}

function ms(microseconds: number): number {
  return round(microseconds / 1000, 3);
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** A workflow's series: its runs, and its steps' requests by stepId in the order first seen. */
export interface WorkflowSeries {
  file: string;
  workflowId: string;
  runs: Series;
  steps: Map<string, Series>;
}

/** The figures of a suite: every run, every request, and each workflow's. */
export class SuiteLatency {
  readonly runs = new Series();
  readonly requests = new Series();
  readonly workflows = new Map<string, WorkflowSeries>();

  /** The series of `workflowId` of `file`, made on first use. */
  workflow(file: string, workflowId: string): WorkflowSeries {
    const key = `${file}\u0000${workflowId}`;
    let series = this.workflows.get(key);
    if (series === undefined) {
      series = { file, workflowId, runs: new Series(), steps: new Map() };
      this.workflows.set(key, series);
    }
    return series;
  }

  /** A finished run of `workflowId` (a skipped one is not a run). */
  recordRun(file: string, workflowId: string, durationMs: number, ok: boolean): void {
    this.runs.record(durationMs, ok);
    this.workflow(file, workflowId).runs.record(durationMs, ok);
  }

  /** A step's request (or message) of a run of `workflowId`: its duration when an answer came. */
  recordStep(file: string, workflowId: string, stepId: string, durationMs: number | undefined, ok: boolean): void {
    this.requests.record(durationMs, ok);
    const steps = this.workflow(file, workflowId).steps;
    let series = steps.get(stepId);
    if (series === undefined) {
      series = new Series();
      steps.set(stepId, series);
    }
    series.record(durationMs, ok);
  }
}

/** The figures of every series, for the summary (`stats`) and the reports. */
export interface StatsFigures {
  runs: Figures;
  requests: Figures;
  workflows: Array<{ file: string; workflowId: string; runs: Figures; steps: Array<{ stepId: string } & Figures> }>;
}

/** The suite's figures over `seconds` of wall-clock time. */
export function statsFigures(latency: SuiteLatency, seconds: number): StatsFigures {
  return {
    runs: latency.runs.figures(seconds),
    requests: latency.requests.figures(seconds),
    workflows: [...latency.workflows.values()].map((w) => ({ file: w.file, workflowId: w.workflowId, runs: w.runs.figures(seconds), steps: [...w.steps].map(([stepId, s]) => ({ stepId, ...s.figures(seconds) })) })),
  };
}

/** The series as a report keeps them (histograms serialised), for merge-reports. */
export interface StatsData {
  runs: SeriesData;
  requests: SeriesData;
  workflows: Array<{ file: string; workflowId: string; runs: SeriesData; steps: Array<{ stepId: string } & SeriesData> }>;
}

export function statsData(latency: SuiteLatency): StatsData {
  return {
    runs: latency.runs.data(),
    requests: latency.requests.data(),
    workflows: [...latency.workflows.values()].map((w) => ({ file: w.file, workflowId: w.workflowId, runs: w.runs.data(), steps: [...w.steps].map(([stepId, s]) => ({ stepId, ...s.data() })) })),
  };
}

/** Adds a report's series (a shard's) into `latency`. */
export function addStatsData(latency: SuiteLatency, data: StatsData): void {
  latency.runs.add(data.runs);
  latency.requests.add(data.requests);
  for (const w of data.workflows) {
    const series = latency.workflow(w.file, w.workflowId);
    series.runs.add(w.runs);
    for (const step of w.steps) {
      let s = series.steps.get(step.stepId);
      if (s === undefined) {
        s = new Series();
        series.steps.set(step.stepId, s);
      }
      s.add(step);
    }
  }
}
