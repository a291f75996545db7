/**
 * Why a run stopped before its first request, as the reports and the GitHub Actions output word it
 * (docs/reports.md#when-the-files-are-written): the error the CLI prints, or an invalid document's
 * findings. Pure: error in, data out.
 */
import type { Finding } from '../arazzo/finding.js';
import { ToolError } from '../errors/tool-error.js';
import type { ReportFinding, RunStop } from '../observe/report/run-report.js';

const STATUS_OF_KIND = {
  usage: 'usage-error',
  'invalid-document': 'invalid-document',
  failed: 'failed',
  interrupted: 'interrupted',
  internal: 'internal-error',
} as const;

/** The stop of a run that threw `error` before its first request (a ToolError's code and message; anything else is internal). */
export function stopOfError(error: unknown, workflowId: string | undefined): RunStop {
  const withId = (stop: RunStop): RunStop => (workflowId === undefined ? stop : { ...stop, workflowId });
  if (error instanceof ToolError) {
    const stop: RunStop = { status: STATUS_OF_KIND[error.kind], error: { code: error.code, message: error.message } };
    if (error.hint !== undefined) stop.error.hint = error.hint;
    return withId(stop);
  }
  const message = error instanceof Error ? error.message : String(error);
  return withId({ status: 'internal-error', error: { code: 'INTERNAL', message: `internal error: ${message.split('\n')[0] ?? ''}` } });
}

/** The stop of a run whose document is invalid (exit 10): the findings stderr showed, errors first. */
export function stopOfInvalidDocument(file: string, shown: readonly Finding[], workflowId: string | undefined): RunStop {
  const errors = shown.filter((finding) => finding.severity === 'error').length;
  const findings = [...shown].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1)).map((finding) => reportFinding(file, finding));
  const stop: RunStop = {
    status: 'invalid-document',
    error: { code: 'INVALID_DOCUMENT', message: `${file} is not a valid workflow document (${errors} ${errors === 1 ? 'error' : 'errors'}); nothing was sent`, findings },
  };
  if (workflowId !== undefined) stop.workflowId = workflowId;
  return stop;
}

function reportFinding(file: string, finding: Finding): ReportFinding {
  const view: ReportFinding = { code: finding.code, severity: finding.severity, message: finding.message, pointer: finding.pointer, file };
  if (finding.line !== undefined) view.line = finding.line;
  if (finding.col !== undefined) view.col = finding.col;
  return view;
}
