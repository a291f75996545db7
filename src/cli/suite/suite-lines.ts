/** The stderr lines of `arazzo test`: one per finished run, and the summary. Pure: text in, text out. */
import { printableLine } from '../../output/printable.js';
import type { Style } from '../../output/style.js';
import type { SuiteResult } from './run-entry.js';

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
export interface SuiteCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Runs --bail or an interruption left unstarted. */
  notRun: number;
  documents: number;
  durationMs: number;
}

/** `3 passed, 1 failed, 2 skipped (2 documents, 431 ms)`, with `, 4 not run` after --bail or Ctrl-C. */
export function summaryLine(counts: SuiteCounts, style: Style): string {
  const failed = `${counts.failed} failed`;
  const notRun = counts.notRun > 0 ? `, ${counts.notRun} not run` : '';
  const documents = `${counts.documents} document${counts.documents === 1 ? '' : 's'}`;
  return `${style.green(`${counts.passed} passed`)}, ${counts.failed > 0 ? style.red(failed) : failed}, ${counts.skipped} skipped${notRun} ${style.dim(`(${documents}, ${counts.durationMs} ms)`)}`;
}
