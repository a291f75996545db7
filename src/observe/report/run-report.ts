/**
 * The `--report` document: one JSON object per run, schema docs/schemas/run-report-v1.schema.json
 * (documented in docs/reports.md). Pure: it words what the capture holds.
 */
import type { RunFailure } from '../../../machines/types.js';
import { printableLine } from '../../output/printable.js';
import type { KnownSecrets } from '../../output/redact.js';
import { VERSION } from '../../version.js';
import { failureMessage } from '../failure-message.js';
import type { StepRun } from './capture-runs.js';
import { maskJson } from './mask-values.js';

/** Version of the report's schema; bump it when a field changes meaning or goes away (adding one does not). */
export const REPORT_VERSION = 1;
/** The `$id` of docs/schemas/run-report-v1.schema.json, which the report names as its `$schema`. */
export const REPORT_SCHEMA_ID = 'urn:tool:schema:run-report:1';

/** How the run ended; the last three are runs that stopped before their first request (see `RunStop`). */
export type RunStatus = 'succeeded' | 'failed' | 'interrupted' | 'invalid-document' | 'usage-error' | 'internal-error';

/** A finding of an invalid document, as the report lists it (the document's own file, line and column). */
export interface ReportFinding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  pointer: string;
  file: string;
  line?: number;
  col?: number;
}

/** Why a run stopped before it started: the error stderr printed, and an invalid document's findings. */
export interface RunError {
  code: string;
  message: string;
  hint?: string;
  findings?: ReportFinding[];
}

/**
 * A run that stopped before its first request: an invalid document (exit 10), a usage or
 * configuration error (exit 2: a missing input, an unknown API, a description that cannot be
 * read), a refusal (exit 1), Ctrl-C while loading, or a bug. Its reports have no step runs.
 */
export interface RunStop {
  status: 'invalid-document' | 'usage-error' | 'failed' | 'interrupted' | 'internal-error';
  /** The selected workflow, when it was known. */
  workflowId?: string;
  error: RunError;
}

export interface RunReport {
  $schema: typeof REPORT_SCHEMA_ID;
  reportVersion: typeof REPORT_VERSION;
  tool: { name: 'tool'; version: string };
  /** `run`, or `replay` with the HAR it answered from. */
  command: 'run' | 'replay';
  replayOf?: string;
  /** The document as given on the command line. */
  document: string;
  workflowId: string;
  runner: string;
  status: RunStatus;
  startedAt: string;
  durationMs: number;
  failure?: { code: RunFailure['code']; stepId?: string; action?: string; message: string };
  /** A run that stopped before its first request: why (secrets masked). */
  error?: RunError;
  /** The workflow outputs (`{}` unless it succeeded), secrets masked. */
  outputs: Record<string, unknown>;
  stepRuns: number;
  steps: StepRun[];
}

/** What a report says of its run besides the step runs: the report's own fields, and the rest as the run left them. */
export interface RunSummary extends Pick<RunReport, 'command' | 'replayOf' | 'document' | 'workflowId' | 'runner' | 'status'> {
  startedAt: number;
  durationMs: number;
  failure?: RunFailure;
  error?: RunError;
  outputs: Record<string, unknown>;
}

/** The report of one run. */
export function buildRunReport(summary: RunSummary, steps: StepRun[], known: KnownSecrets): RunReport {
  return {
    $schema: REPORT_SCHEMA_ID,
    reportVersion: REPORT_VERSION,
    tool: { name: 'tool', version: VERSION },
    command: summary.command,
    ...(summary.replayOf === undefined ? {} : { replayOf: summary.replayOf }),
    document: summary.document,
    workflowId: summary.workflowId,
    runner: summary.runner,
    status: summary.status,
    startedAt: new Date(summary.startedAt).toISOString(),
    durationMs: round(summary.durationMs),
    ...(summary.failure ? { failure: failureView(summary.failure, known) } : {}),
    ...(summary.error ? { error: errorView(summary.error, known) } : {}),
    outputs: maskJson(summary.outputs, known) as Record<string, unknown>,
    stepRuns: steps.length,
    steps: steps.map((step) => (step.durationMs === undefined ? step : { ...step, durationMs: round(step.durationMs) })),
  };
}

/** A run failure as the report and the JUnit file show it: its code, where, and the `error:` line's wording (masked). */
export function failureView(failure: RunFailure, known: KnownSecrets): NonNullable<RunReport['failure']> {
  const view: NonNullable<RunReport['failure']> = { code: failure.code, message: printableLine(failureMessage(failure), known) };
  if (failure.stepId !== undefined) view.stepId = failure.stepId;
  if (failure.action !== undefined) view.action = failure.action;
  return view;
}

/** A stopped run's error as the report and the JUnit file show it: every text masked and stripped of control characters. */
export function errorView(error: RunError, known: KnownSecrets): RunError {
  const view: RunError = { code: error.code, message: printableLine(error.message, known) };
  if (error.hint !== undefined) view.hint = printableLine(error.hint, known);
  if (error.findings !== undefined) view.findings = error.findings.map((finding) => ({ ...finding, message: printableLine(finding.message, known) }));
  return view;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
