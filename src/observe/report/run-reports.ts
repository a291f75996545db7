/**
 * `--report`, `--har` and `--junit` for one run: opens their files before anything is sent (an
 * unwritable path is a usage error, exit 2), captures the run as it goes (capture-runs.ts), and
 * writes the files when it ends, whether it succeeded, failed or was interrupted. Loaded only
 * when one of the flags is given.
 */
import type { RunFailure, StepRecord, WorkflowPlan } from '../../../machines/types.js';
import { DEFAULT_PROFILE, type RunnerProfile } from '../../arazzo/runner-profile.js';
import type { NarratedProgram } from '../narrate-actions.js';
import { DEFAULT_BODY_LIMIT } from '../reporter.js';
import type { RunEvents } from '../run-events.js';
import { createRunCapture, type NarratedWorkflows } from './capture-runs.js';
import { harEntry, harHead, harTail } from './har-entry.js';
import { buildJunit } from './junit-xml.js';
import { openOutputFile, type OutputFile } from './output-file.js';
import { buildRunReport, type RunStop, type RunSummary } from './run-report.js';

/** The files a run writes about itself (paths relative to the working directory). */
export interface ReportTargets {
  /** --report: the JSON report (docs/reports.md). */
  report?: string;
  /** --har: HAR 1.2 of every exchange. */
  har?: string;
  /** --junit: JUnit XML. */
  junit?: string;
  /** `arazzo replay --from`: the HAR the run was answered from, named in the reports. */
  replayOf?: string;
}

/** What the reports need of the run's options. */
export interface ReportRunOptions {
  reports?: ReportTargets;
  file: string;
  profile?: RunnerProfile;
  secretInputs?: readonly string[];
  bodyLimit?: number;
}

/** What the reports read of the run record printed on stdout (src/run/run-record.ts). */
export interface ReportedRecord {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: StepRecord[];
}

export interface RunReports {
  /** Captures the run from its events on `bus` (`plan`, `programs`: the selected workflow's; `workflows`: every workflow of a v2 run). */
  subscribe(bus: RunEvents, plan: WorkflowPlan, programs: readonly NarratedProgram[], workflows?: NarratedWorkflows): void;
  /**
   * Writes every file, given the run's record (as printed on stdout) and how it ended. Rejects with
   * a REPORT_WRITE_FAILED ToolError when one could not be written (the others are).
   */
  finish(record: ReportedRecord, failure: RunFailure | undefined, interrupted: boolean): Promise<void>;
  /**
   * Writes every file for a run that stopped before its first request (`stop`: why), so that CI
   * finds them after an invalid document or a usage error too. Does nothing once `finish()` ran.
   * Rejects like `finish()`.
   */
  stopped(stop: RunStop): Promise<void>;
  /** Removes the files' temporary copies unless `finish()` or `stopped()` wrote them. */
  close(): Promise<void>;
}

/** Opens the files that `opts.reports` names, relative to `cwd`. Throws FileError (exit 2) when one cannot be written. */
export async function openRunReports(opts: ReportRunOptions, cwd: string): Promise<RunReports> {
  const targets = opts.reports ?? {};
  const started = Date.now();
  const startedAt = performance.now();
  const files: OutputFile[] = [];
  const openOne = async (path: string | undefined, flag: string) => {
    if (path === undefined) return undefined;
    const file = await openOutputFile(path, cwd, flag);
    files.push(file);
    return file;
  };
  let report: OutputFile | undefined;
  let har: OutputFile | undefined;
  let junit: OutputFile | undefined;
  try {
    report = await openOne(targets.report, '--report');
    har = await openOne(targets.har, '--har');
    junit = await openOne(targets.junit, '--junit');
  } catch (error) {
    await Promise.all(files.map((file) => file.discard()));
    throw error;
  }

  let entries = 0;
  har?.write(harHead());
  const capture = createRunCapture({
    secrets: opts.secretInputs ?? [],
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    onExchange: har && ((exchange) => har.write(`${entries++ === 0 ? '' : ',\n'}${JSON.stringify(harEntry(exchange))}`)),
  });

  let written = false;
  const write = async (summary: RunSummary, steps: ReturnType<typeof capture.runs>, known: ReturnType<typeof capture.known>) => {
    written = true;
    report?.write(`${JSON.stringify(buildRunReport(summary, steps, known), null, 2)}\n`);
    junit?.write(buildJunit(summary, steps, known));
    har?.write(harTail());
    const results = await Promise.allSettled(files.map((file) => file.commit()));
    const rejected = results.find((result) => result.status === 'rejected');
    if (rejected) throw rejected.reason;
  };
  const base = () => ({
    command: targets.replayOf === undefined ? ('run' as const) : ('replay' as const),
    document: opts.file,
    runner: (opts.profile ?? DEFAULT_PROFILE).name,
    startedAt: started,
    durationMs: performance.now() - startedAt,
    ...(targets.replayOf === undefined ? {} : { replayOf: targets.replayOf }),
  });

  return {
    subscribe: (bus, plan, programs, workflows) => capture.subscribe(bus, plan, programs, workflows),
    async stopped(stop) {
      if (written) return;
      await write({ ...base(), workflowId: stop.workflowId ?? '', status: stop.status, error: stop.error, outputs: {} }, [], capture.known());
    },
    async finish(record, failure, interrupted) {
      const steps = capture.runs(record.steps);
      const known = capture.known();
      const summary: RunSummary = {
        command: targets.replayOf === undefined ? 'run' : 'replay',
        document: opts.file,
        workflowId: record.workflowId,
        runner: (opts.profile ?? DEFAULT_PROFILE).name,
        status: interrupted ? 'interrupted' : failure ? 'failed' : 'succeeded',
        startedAt: started,
        durationMs: performance.now() - startedAt,
        outputs: record.outputs,
      };
      if (targets.replayOf !== undefined) summary.replayOf = targets.replayOf;
      if (failure !== undefined) summary.failure = failure;
      await write(summary, steps, known);
    },
    async close() {
      await Promise.all(files.map((file) => file.discard()));
    },
  };
}
