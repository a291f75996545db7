import type { Writable } from 'node:stream';
import { formatFinding, type Finding } from '../arazzo/index.js';
import type { LoadedDocument, Workflow } from '../arazzo/model.js';
import { CommandUsageError } from '../cli/errors.js';
import type { Style } from '../cli/style.js';

/**
 * Findings that the spec makes runtime errors (when the construct is reached), not reasons to
 * refuse the whole run: cross-workflow goto, replay, regex/jsonpath action criteria, `context`.
 */
export const RUNTIME_ERRORS = new Set<string>(['CROSS_WORKFLOW_GOTO', 'ACTION_NOT_SUPPORTED', 'UNSUPPORTED_ACTION_CRITERION', 'CRITERION_CONTEXT_UNSUPPORTED']);

/** Findings as the runner sees them: runtime-only errors become warnings that say so. */
export function runnerFindings(findings: Finding[]): Finding[] {
  return findings.map((f) =>
    f.severity === 'error' && RUNTIME_ERRORS.has(f.code) ? { ...f, severity: 'warning' as const, message: `${f.message} (fails at runtime if reached)` } : f,
  );
}

/**
 * Prints validation findings on stderr (warnings only with `showWarnings`); returns false when any
 * blocks the run. `consequence` ends the error line ("nothing was sent").
 */
export function reportFindings(findings: Finding[], doc: LoadedDocument, stderr: Writable, style: Style, consequence: string, showWarnings = true): boolean {
  const shown = runnerFindings(findings);
  const errors = shown.filter((f) => f.severity === 'error');
  for (const finding of showWarnings ? shown : errors) stderr.write(`${formatFinding(finding, doc.file, style)}\n`);
  if (errors.length > 0) {
    stderr.write(
      `${style.red('error:')} ${doc.file} is not a valid workflow document (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}); ${consequence}.\n` +
        `  Run \`tool arazzo validate ${doc.file}\` for details.\n`,
    );
    return false;
  }
  return true;
}

/** The workflow to run: the one named by --workflow, or the only one. Throws a usage error listing the ids otherwise. */
export function selectWorkflow(doc: LoadedDocument, workflowId: string | undefined): Workflow {
  const workflows = doc.model.workflows;
  const ids = workflows.map((w) => w.workflowId ?? '?').join(', ');
  if (workflowId !== undefined) {
    const found = workflows.find((w) => w.workflowId === workflowId);
    if (!found) throw new CommandUsageError(`${doc.file} has no workflow "${workflowId}"`, `Its workflows: ${ids}`);
    return found;
  }
  if (workflows.length === 1) return workflows[0]!;
  throw new CommandUsageError(`${doc.file} has ${workflows.length} workflows; choose one with --workflow <id>`, `Its workflows: ${ids}`);
}

