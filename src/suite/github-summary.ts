/**
 * The one `$GITHUB_STEP_SUMMARY` section of an `arazzo test` suite in GitHub Actions (its runs
 * write none of their own): the counts, the thresholds, the first failures and, under load, the
 * figures per workflow. Pure: data in, Markdown out; every text escaped as Markdown.
 */
import { markdownText } from '../observe/github/step-summary.js';
import type { StatsFigures } from './latency.js';
import type { ThresholdVerdict } from './thresholds.js';

/** How many failed runs the summary lists. */
export const SUMMARY_FAILURES = 20;

export interface SuiteSummaryFailure {
  file: string;
  workflowId: string | undefined;
  row?: number;
  iteration?: number;
  stepId?: string;
  code: string;
  message: string;
}

export interface SuiteSummaryInput {
  passed: number;
  failed: number;
  skipped: number;
  notRun: number;
  documents: number;
  durationMs: number;
  thresholds: readonly ThresholdVerdict[];
  /** The first failed runs (at most SUMMARY_FAILURES). */
  failures: readonly SuiteSummaryFailure[];
  /** Under load: the figures per workflow. */
  figures?: StatsFigures;
}

/** The section, ending with a blank line. */
export function suiteStepSummary(input: SuiteSummaryInput): string {
  const text = (value: string) => markdownText(value);
  const ok = input.failed === 0 && input.thresholds.every((verdict) => verdict.ok);
  const notRun = input.notRun > 0 ? `, ${input.notRun} not run` : '';
  const lines = [`### ${ok ? '✅' : '❌'} tool arazzo test: ${input.passed} passed, ${input.failed} failed, ${input.skipped} skipped${notRun}`, '', `${input.documents} document${input.documents === 1 ? '' : 's'}, ${input.durationMs} ms`, ''];
  if (input.thresholds.length > 0) {
    for (const verdict of input.thresholds) lines.push(`- ${verdict.ok ? '✅' : '❌'} threshold ${text(verdict.threshold)}${verdict.message === undefined ? '' : `: ${text(verdict.message)}`}`);
    lines.push('');
  }
  if (input.figures !== undefined && input.figures.workflows.length > 0) {
    lines.push('| Workflow | Runs | Errors | p50 | p95 | p99 | max | per s |', '|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const w of input.figures.workflows) lines.push(`| ${text(w.file)} › ${text(w.workflowId)} | ${w.runs.count} | ${w.runs.errors} | ${w.runs.p50} ms | ${w.runs.p95} ms | ${w.runs.p99} ms | ${w.runs.max} ms | ${w.runs.perSecond} |`);
    lines.push('');
  }
  if (input.failures.length > 0) {
    lines.push('| Document | Workflow | Step | Failure |', '|---|---|---|---|');
    for (const f of input.failures) {
      const run = `${text(f.workflowId ?? '(document)')}${f.row === undefined ? '' : ` \\[row ${f.row}\\]`}${f.iteration === undefined ? '' : ` \\#${f.iteration}`}`;
      lines.push(`| ${text(f.file)} | ${run} | ${f.stepId === undefined ? '' : text(f.stepId)} | **${text(f.code)}**: ${text(f.message)} |`);
    }
    if (input.failed > input.failures.length) lines.push('', `… and ${input.failed - input.failures.length} more failed runs (the suite's --results, --report or --junit has them all).`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
