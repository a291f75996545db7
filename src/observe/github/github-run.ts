/**
 * A run's output for GitHub Actions (GITHUB_ACTIONS=true): `::add-mask::` for the run's secrets
 * before anything could print them, an annotation on stderr for each finding of an invalid
 * document, for an early error and for the failure of a failed run (the step's line in the
 * document), and the Markdown summary appended to `$GITHUB_STEP_SUMMARY`. stdout is left alone: it
 * carries the record only. Loaded only in GitHub Actions.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { RunFailure } from '../../../machines/types.js';
import type { Position } from '../../arazzo/model.js';
import { secretValuesOf } from '../../output/redact.js';
import { failureMessage } from '../failure-message.js';
import type { RunStop } from '../report/run-report.js';
import type { RunEvents } from '../run-events.js';
import { appendStepSummary, stepSummary, type SummaryRun, type SummaryStep } from './step-summary.js';
import { addMasks, annotation, annotationFile } from './workflow-commands.js';

export interface GitHubRunOptions {
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
  command: 'run' | 'replay';
  /** The document as given on the command line: the annotations' `file`. */
  file: string;
  /** Values to mask: --input-env and secret-named inputs. */
  secrets: readonly string[];
  /** Says a summary that could not be written (one line). */
  warn: (message: string) => void;
  /**
   * The run is one of a suite's (`arazzo test`), whose runs overlap under --concurrency:
   * `stoppedWith` is the token the suite stopped command processing with for all its runs (the
   * run prints its masks as one of its own commands and leaves processing stopped when it ends;
   * the suite resumes it); the suite writes one step summary for all its runs (the run writes
   * none); `annotate` says whether the run may still annotate its failure (a suite of ten
   * thousand failing runs annotates the first few). Without it, the run stops processing with a
   * token of its own, resumes it when it ends, and writes its own summary.
   */
  suite?: GitHubSuite;
}

/** What a run of a suite takes from it (see GitHubRunOptions.suite). */
export interface GitHubSuite {
  stoppedWith: string;
  annotate(): boolean;
}

export interface GitHubRun {
  /** Records the step runs from `bus` and masks each credential the bound APIs' auth sends; subscribe before the stderr narration. */
  subscribe(bus: RunEvents): void;
  /** The run ended (its record is printed): annotates its failure at its step and appends the summary. */
  finished(workflowId: string, failure: RunFailure | undefined, interrupted: boolean, steps: ReadonlyMap<string, Position>): Promise<void>;
  /** The run stopped before its first request: annotates the findings or the error and appends the summary. */
  stopped(stop: RunStop): Promise<void>;
}

/** Starts the GitHub Actions output of one run: prints the `::add-mask::` lines of `secrets` at once. */
export function startGitHubRun(opts: GitHubRunOptions): GitHubRun {
  const known = new Set(opts.secrets);
  // Between tool's own commands, GitHub's command processing is stopped with a token only this run
  // knows: a server's text that stderr shows (an echoed `::error::…`, `::stop-commands::…`) is then
  // read as text, never as a workflow command. Each of tool's commands is printed with processing
  // resumed for it; `end` resumes it for good, for whatever the job's step runs after tool.
  const token = opts.suite?.stoppedWith ?? randomBytes(16).toString('hex');
  const print = (text: string) => {
    if (text !== '') opts.stderr.write(`::${token}::\n${text}::stop-commands::${token}\n`);
  };
  if (opts.suite === undefined) opts.stderr.write(`${addMasks(known)}::stop-commands::${token}\n`);
  else print(addMasks(known));
  const end = () => {
    if (opts.suite === undefined) opts.stderr.write(`::${token}::\n`);
  };
  const steps: SummaryStep[] = [];
  let done = false;
  const file = annotationFile(opts.file, opts.cwd, opts.env);
  const secrets = () => ({ values: known });
  const annotates = () => opts.suite === undefined || opts.suite.annotate();
  const summarize = async (run: SummaryRun) => {
    const path = opts.env.GITHUB_STEP_SUMMARY;
    if (path === undefined || path === '' || opts.suite !== undefined) return;
    await appendStepSummary(path, opts.cwd, stepSummary(run, secrets())).catch((error: Error) => opts.warn(error.message));
  };

  return {
    subscribe(bus) {
      bus.on('step.response', ({ stepId, request, response, ok, reason }) => {
        // Mask a credential before the narration that follows could print a server's echo of it.
        const fresh = request.auth === undefined ? [] : secretValuesOf(request).filter((value) => !known.has(value));
        for (const value of fresh) known.add(value);
        print(addMasks(fresh));
        const step: SummaryStep = { stepId, status: response?.status ?? 0, ok };
        if (response !== undefined) step.durationMs = response.durationMs;
        if (reason !== undefined) step.reason = reason;
        steps.push(step);
      });
      bus.on('step.failedEarly', ({ stepId, reason }) => steps.push({ stepId, status: 0, ok: false, reason }));
    },
    async finished(workflowId, failure, interrupted, positions) {
      if (done) return;
      done = true;
      const status = interrupted ? 'interrupted' : failure ? 'failed' : 'succeeded';
      const run: SummaryRun = { command: opts.command, file: opts.file, workflowId, status, steps };
      if (interrupted) run.failure = { code: 'INTERRUPTED', message: 'interrupted (Ctrl-C or a signal); nothing more was sent' };
      else if (failure) {
        const where = failure.stepId === undefined ? '' : ` at step "${failure.stepId}"`;
        const message = `workflow "${workflowId}" failed${where}: ${failureMessage(failure)}`;
        run.failure = { code: failure.code, message };
        const position = failure.stepId === undefined ? undefined : (positions.get(failure.stepId) ?? positions.get(failure.stepId.split('/')[0]!));
        if (annotates()) print(annotation('error', message, { file, ...position, title: `tool arazzo ${opts.command}: ${failure.code}` }, secrets()));
      }
      end();
      await summarize(run);
    },
    async stopped(stop) {
      if (done) return;
      done = true;
      const findings = stop.error.findings ?? [];
      for (const finding of annotates() ? findings : []) {
        print(annotation(finding.severity, finding.message, { file: annotationFile(finding.file, opts.cwd, opts.env), line: finding.line, col: finding.col, title: finding.code }, secrets()));
      }
      if (findings.length === 0 && annotates()) print(annotation('error', stop.error.message, { file, title: `tool arazzo ${opts.command}: ${stop.error.code}` }, secrets()));
      const run: SummaryRun = { command: opts.command, file: opts.file, status: stop.status, steps, failure: stop.error };
      if (stop.workflowId !== undefined) run.workflowId = stop.workflowId;
      if (findings.length > 0) run.findings = findings.map((f) => `${f.file}${f.line === undefined ? '' : `:${f.line}:${f.col ?? 1}`} ${f.severity} ${f.code} ${f.message}`);
      end();
      await summarize(run);
    },
  };
}
