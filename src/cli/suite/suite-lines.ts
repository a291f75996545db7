/** The stderr lines of `arazzo test`: one per finished run, and the summary. Pure: text in, text out. */
import { printableLine } from '../../output/printable.js';
import type { Style } from '../../output/style.js';
import type { SuiteResult } from './run-entry.js';
import type { Figures, StatsFigures } from '../../suite/latency.js';
import type { ThresholdVerdict } from '../../suite/thresholds.js';
import type { SuiteTally } from './suite-report.js';

/** `✓ file › workflowId (12 ms)` (`workflowId [row 3]` for a --data row), `✗ … (12 ms): step "x": reason`, or `- … skipped: reason`. */
export function resultLine(result: SuiteResult, style: Style): string {
  const row = result.row !== undefined ? ` [row ${result.row}]` : '';
  const name = `${printableLine(result.file)} › ${printableLine(result.workflowId ?? '(document)')}${row}`;
  const time = style.dim(`(${result.durationMs} ms)`);
  if (result.status === 'skipped') return `${style.yellow('-')} ${name} skipped: ${printableLine(result.reason ?? '')}`;
  if (result.status === 'passed') return `${style.green('✓')} ${name} ${time}`;
  return `${style.red('✗')} ${name} ${time}: ${failureText(result)}`;
}

function failureText(result: SuiteResult): string {
  const failure = result.failure;
  if (failure === undefined) return 'failed';
  const workflow = failure.workflowId !== undefined ? `workflow "${printableLine(failure.workflowId)}" ` : '';
  const step = failure.stepId !== undefined ? `step "${printableLine(failure.stepId)}": ` : '';
  return `${workflow}${step}${printableLine(failure.message)}`;
}

/** What the summary line counts. */
export interface SuiteCounts extends SuiteTally {
  documents: number;
  durationMs: number;
}

/** `3 passed, 1 failed, 2 skipped (2 documents, 431 ms)`, with `, 4 not run` after --bail or Ctrl-C, `, 5 already done` with --resume, `, 2 dropped` with --rate. */
export function summaryLine(counts: SuiteCounts, style: Style): string {
  const failed = `${counts.failed} failed`;
  const notRun = `${counts.notRun > 0 ? `, ${counts.notRun} not run` : ''}${counts.resumed ? `, ${counts.resumed} already done` : ''}${counts.dropped ? `, ${counts.dropped} dropped` : ''}`;
  const documents = `${counts.documents} document${counts.documents === 1 ? '' : 's'}`;
  return `${style.green(`${counts.passed} passed`)}, ${counts.failed > 0 ? style.red(failed) : failed}, ${counts.skipped} skipped${notRun} ${style.dim(`(${documents}, ${counts.durationMs} ms)`)}`;
}

/**
 * The figures under load, a line per workflow and one per step below it:
 * `flows/a.arazzo.yaml › order  1000 runs, 3 errors (0.3%), p50 12 ms, p95 30 ms, p99 41 ms, max 60 ms, 45.2/s`.
 */
export function figuresLines(stats: StatsFigures, style: Style): string[] {
  const lines: string[] = [];
  for (const workflow of stats.workflows) {
    lines.push(`${printableLine(workflow.file)} › ${printableLine(workflow.workflowId)}  ${figuresText(workflow.runs, 'run', style)}`);
    for (const step of workflow.steps) lines.push(`  ${printableLine(step.stepId)}  ${figuresText(step, 'request', style)}`);
  }
  return lines;
}

function figuresText(figures: Figures, unit: string, style: Style): string {
  const errors = figures.errors > 0 ? style.red(`${figures.errors} error${figures.errors === 1 ? '' : 's'} (${Math.round(figures.errorRate * 10000) / 100}%)`) : '0 errors';
  return `${figures.count} ${unit}${figures.count === 1 ? '' : 's'}, ${errors}, p50 ${figures.p50} ms, p95 ${figures.p95} ms, p99 ${figures.p99} ms, max ${figures.max} ms, ${figures.perSecond}/s`;
}

/** `✓ threshold p95<300ms (p95 was 212 ms)` or `✗ threshold p95<300ms: p95 was 412 ms`. */
export function thresholdLine(verdict: ThresholdVerdict, style: Style): string {
  if (verdict.ok) return `${style.green('✓')} threshold ${printableLine(verdict.threshold)}`;
  return `${style.red('✗')} threshold ${printableLine(verdict.threshold)}: ${printableLine(verdict.message ?? 'does not hold')}`;
}
