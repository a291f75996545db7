/**
 * The Markdown summary of a run that tool appends to `$GITHUB_STEP_SUMMARY` in GitHub Actions:
 * the workflow, how it ended, a table of its step runs (status code, duration) and the failure or
 * the error. Every text that can come from a document or a server is masked, stripped of control
 * characters and Markdown-escaped. The file is appended to, never truncated, and only when it is a
 * regular file.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { printableLine } from '../../output/printable.js';
import type { KnownSecrets } from '../../output/redact.js';

/** One step run as the summary's table shows it. */
export interface SummaryStep {
  stepId: string;
  /** HTTP status, 0 without a response. */
  status: number;
  ok: boolean;
  durationMs?: number;
  reason?: string;
}

/** What the summary says of one run. */
export interface SummaryRun {
  command: 'run' | 'replay';
  file: string;
  workflowId?: string;
  /** succeeded, failed, interrupted, invalid-document, usage-error, internal-error. */
  status: string;
  steps: readonly SummaryStep[];
  /** The `error:` line of a failed run, or of a run that stopped before its first request. */
  failure?: { code: string; message: string; hint?: string };
  /** An invalid document's findings, as `file:line:col severity CODE message`. */
  findings?: readonly string[];
}

/** At most this many step runs are listed; the rest are counted. */
const MAX_ROWS = 200;
const MAX_FINDINGS = 50;

/** Text shown as Markdown: masked, one line, control characters dropped, Markdown's punctuation escaped. */
export function markdownText(text: string, known: KnownSecrets = {}, max = 500): string {
  return printableLine(text, known, max).replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&');
}

/** The Markdown of one run, ending with a blank line. */
export function stepSummary(run: SummaryRun, known: KnownSecrets = {}): string {
  const text = (value: string) => markdownText(value, known);
  const icon = run.status === 'succeeded' ? '✅' : '❌';
  const what = run.workflowId === undefined || run.workflowId === '' ? text(run.file) : `workflow ${text(run.workflowId)}`;
  const lines = [`### ${icon} tool arazzo ${run.command}: ${what} ${text(run.status)}`, '', `Document: ${text(run.file)}`, ''];
  if (run.steps.length > 0) {
    lines.push('| # | Step | Status | Result | Duration |', '|---:|---|---:|---|---:|');
    for (const [index, step] of run.steps.slice(0, MAX_ROWS).entries()) {
      const result = step.ok ? 'passed' : `failed${step.reason === undefined ? '' : `: ${text(step.reason)}`}`;
      const duration = step.durationMs === undefined ? '' : `${Math.round(step.durationMs)} ms`;
      lines.push(`| ${index + 1} | ${text(step.stepId)} | ${step.status === 0 ? '—' : step.status} | ${result} | ${duration} |`);
    }
    if (run.steps.length > MAX_ROWS) lines.push('', `… and ${run.steps.length - MAX_ROWS} more step runs.`);
    lines.push('');
  }
  if (run.failure !== undefined) {
    lines.push(`**${text(run.failure.code)}**: ${text(run.failure.message)}`);
    if (run.failure.hint !== undefined) lines.push('', text(run.failure.hint));
    lines.push('');
  }
  if (run.findings !== undefined && run.findings.length > 0) {
    for (const finding of run.findings.slice(0, MAX_FINDINGS)) lines.push(`- ${text(finding)}`);
    if (run.findings.length > MAX_FINDINGS) lines.push(`- … and ${run.findings.length - MAX_FINDINGS} more findings`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Appends `markdown` to the file `$GITHUB_STEP_SUMMARY` names (relative to `cwd`), creating it
 * with mode 0600 if needed. Throws an Error with a one-line message when it is not a regular file
 * (a FIFO, a device, a folder) or cannot be written.
 */
export async function appendStepSummary(path: string, cwd: string, markdown: string): Promise<void> {
  // O_NONBLOCK: opening a FIFO nobody reads fails at once instead of hanging the run.
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
  let handle;
  try {
    handle = await open(resolve(cwd, path), flags, 0o600);
  } catch (error) {
    throw new Error(`cannot append to $GITHUB_STEP_SUMMARY ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; no summary was written`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`$GITHUB_STEP_SUMMARY ${path} is not a regular file; no summary was written`);
    await handle.writeFile(markdown);
  } finally {
    await handle.close();
  }
}
