/**
 * `--threshold 'p95<300ms'`, `--threshold 'errors<1%'` (k6's convention): a condition on the
 * suite's figures that fails the suite (exit 1) when it does not hold. Pure: text in, verdicts out.
 *
 *   [scope:]metric op value
 *   scope   a workflowId (its runs) or workflowId.stepId (that step's requests); none: every run
 *   metric  p50 p90 p95 p99 max mean (a duration: 300ms, 1.5s, or a bare number of ms),
 *           errors (a rate: 1% or 0.01), rps (runs or requests per second), count
 *   op      <  <=  >  >=
 */
import { CommandUsageError } from '../errors/tool-error.js';
import { Series, type Figures, type SuiteLatency } from './latency.js';

type Metric = 'p50' | 'p90' | 'p95' | 'p99' | 'max' | 'mean' | 'errors' | 'rps' | 'count';
type Op = '<' | '<=' | '>' | '>=';

export interface Threshold {
  /** As given. */
  text: string;
  workflowId?: string;
  stepId?: string;
  metric: Metric;
  op: Op;
  /** In the metric's unit: milliseconds, a rate from 0 to 1, per second, a count. */
  value: number;
}

/** A threshold checked against the figures. */
export interface ThresholdVerdict {
  threshold: string;
  ok: boolean;
  /** The figure compared; undefined when the scope names nothing that ran. */
  actual?: number;
  /** Why it failed, one line: `p95 was 412 ms`. */
  message?: string;
}

const SHAPE = /^\s*(?:([^:<>=\s]+):)?\s*(p50|p90|p95|p99|max|mean|errors|rps|count)\s*(<=|>=|<|>)\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|%)?\s*$/;
const DURATIONS = new Set<Metric>(['p50', 'p90', 'p95', 'p99', 'max', 'mean']);

/** Parses `--threshold` values. Throws CommandUsageError naming the bad one (nothing has run). */
export function parseThresholds(texts: readonly string[]): Threshold[] {
  return texts.map((text) => {
    const match = SHAPE.exec(text);
    if (match === null) throw usage(text, 'is not [workflowId[.stepId]:]metric<value');
    const [, scope, metric, op, number, unit] = match as unknown as [string, string | undefined, Metric, Op, string, string | undefined];
    let value = Number(number);
    if (DURATIONS.has(metric)) {
      if (unit === '%') throw usage(text, `gives ${metric} in %; give a duration (300ms, 1.5s)`);
      if (unit === 's') value *= 1000;
    } else if (metric === 'errors') {
      if (unit === 'ms' || unit === 's') throw usage(text, 'gives errors as a duration; give a rate (1% or 0.01)');
      if (unit === '%') value /= 100;
      if (value > 1) throw usage(text, 'gives an error rate over 100%');
    } else if (unit !== undefined) {
      throw usage(text, `gives ${metric} with a unit (${unit}); give a plain number`);
    }
    const threshold: Threshold = { text: text.trim(), metric, op, value };
    if (scope !== undefined) {
      const dot = scope.indexOf('.');
      // A workflowId may itself hold dots: the step is after the last one only when the workflow is named before it.
      if (dot === -1) threshold.workflowId = scope;
      else {
        threshold.workflowId = scope.slice(0, scope.lastIndexOf('.'));
        threshold.stepId = scope.slice(scope.lastIndexOf('.') + 1);
      }
    }
    return threshold;
  });
}

function usage(text: string, problem: string): CommandUsageError {
  return new CommandUsageError(`--threshold ${JSON.stringify(text)} ${problem}; nothing was run`, "Write it as k6 does: 'p95<300ms', 'errors<1%', 'getPet.fetch:p99<1s', 'rps>=20' (metrics p50 p90 p95 p99 max mean errors rps count; ops < <= > >=).");
}

/** Checks each threshold against the suite's figures over `seconds` of wall-clock time. */
export function checkThresholds(thresholds: readonly Threshold[], latency: SuiteLatency, seconds: number): ThresholdVerdict[] {
  return thresholds.map((threshold) => {
    const series = seriesFor(threshold, latency);
    if (series === undefined) return { threshold: threshold.text, ok: false, message: `${scopeName(threshold)} did not run` };
    const actual = metricOf(series.figures(seconds), threshold.metric);
    const ok = compare(actual, threshold.op, threshold.value);
    const verdict: ThresholdVerdict = { threshold: threshold.text, ok, actual };
    if (!ok) verdict.message = `${threshold.metric} was ${shown(threshold.metric, actual)}${threshold.workflowId !== undefined ? ` (${scopeName(threshold)})` : ''}`;
    return verdict;
  });
}

/**
 * The series a threshold is about: the workflow's (or step's) of every document that has it,
 * added together. A scope `a.b` is step `b` of workflow `a`, unless no workflow `a` ran and a
 * workflow `a.b` did (workflowIds may hold dots).
 */
function seriesFor(threshold: Threshold, latency: SuiteLatency): Series | undefined {
  if (threshold.workflowId === undefined) return latency.runs;
  if (threshold.stepId !== undefined) {
    const whole = `${threshold.workflowId}.${threshold.stepId}`;
    const ids = new Set([...latency.workflows.values()].map((w) => w.workflowId));
    if (!ids.has(threshold.workflowId) && ids.has(whole)) return seriesFor({ ...threshold, workflowId: whole, stepId: undefined }, latency);
  }
  const found: Series[] = [];
  for (const w of latency.workflows.values()) {
    if (w.workflowId !== threshold.workflowId) continue;
    const series = threshold.stepId === undefined ? w.runs : w.steps.get(threshold.stepId);
    if (series !== undefined) found.push(series);
  }
  if (found.length <= 1) return found[0];
  const sum = new Series();
  for (const series of found) sum.add(series.data());
  return sum;
}

function metricOf(figures: Figures, metric: Metric): number {
  if (metric === 'errors') return figures.errorRate;
  if (metric === 'rps') return figures.perSecond;
  return figures[metric];
}

function compare(actual: number, op: Op, value: number): boolean {
  switch (op) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
  }
}

function shown(metric: Metric, value: number): string {
  if (DURATIONS.has(metric)) return `${value} ms`;
  if (metric === 'errors') return `${Math.round(value * 10000) / 100}%`;
  if (metric === 'rps') return `${value}/s`;
  return String(value);
}

function scopeName(threshold: Pick<Threshold, 'workflowId' | 'stepId'>): string {
  if (threshold.workflowId === undefined) return 'the suite';
  return threshold.stepId === undefined ? `workflow "${threshold.workflowId}"` : `step "${threshold.stepId}" of workflow "${threshold.workflowId}"`;
}
