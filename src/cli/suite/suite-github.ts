/**
 * `arazzo test` in GitHub Actions. Each `arazzo run` stops the runner's command processing while
 * it runs, with a token of its own, and resumes it when it ends; runs that overlap
 * (--concurrency) would print their masks while another run has it stopped, and resume it while
 * others still run. The suite stops it once, with one token, around all its runs (each run prints
 * its masks and annotations as commands of that token); it lets only the first failures annotate,
 * and writes one step summary for all its runs instead of one each.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { GitHubSuite } from '../../observe/github/github-run.js';
import { appendStepSummary } from '../../observe/github/step-summary.js';
import { inGitHubActions } from '../../observe/github/workflow-commands.js';
import { SUMMARY_FAILURES, suiteStepSummary, type SuiteSummaryFailure, type SuiteSummaryInput } from '../../suite/github-summary.js';
import type { SuiteResult } from './run-entry.js';

/** How many failed runs of a suite annotate their step (GitHub shows ten error annotations a step). */
const SUITE_ANNOTATIONS = 10;

export interface SuiteGitHub {
  /** What each run takes (RunDeps.githubSuite). */
  readonly runs: GitHubSuite;
  /** Stops command processing, before the first run. */
  stopCommands(): void;
  /** Resumes it, once, however the suite ends. */
  resumeCommands(): void;
  /** A finished run: a failed one may be listed in the summary. */
  finished(result: SuiteResult): void;
  /** Appends the suite's summary to $GITHUB_STEP_SUMMARY (when set); rejects with a one-line Error when it cannot. */
  writeSummary(input: Omit<SuiteSummaryInput, 'failures'>): Promise<void>;
}

/** The suite's GitHub Actions output, or undefined outside GitHub Actions. */
export function suiteGitHub(env: Record<string, string | undefined>, cwd: string, stderr: Writable): SuiteGitHub | undefined {
  if (!inGitHubActions(env)) return undefined;
  const token = randomBytes(16).toString('hex');
  let annotations = 0;
  let stopped = false;
  const failures: SuiteSummaryFailure[] = [];
  return {
    runs: { stoppedWith: token, annotate: () => annotations++ < SUITE_ANNOTATIONS },
    stopCommands() {
      stderr.write(`::stop-commands::${token}\n`);
      stopped = true;
    },
    resumeCommands() {
      if (stopped) stderr.write(`::${token}::\n`);
      stopped = false;
    },
    finished(result) {
      if (result.status === 'failed' && failures.length < SUMMARY_FAILURES) failures.push(summaryFailure(result));
    },
    async writeSummary(input) {
      const path = env.GITHUB_STEP_SUMMARY;
      if (path === undefined || path === '') return;
      await appendStepSummary(path, cwd, suiteStepSummary({ ...input, failures }));
    },
  };
}

function summaryFailure(result: SuiteResult): SuiteSummaryFailure {
  const failure: SuiteSummaryFailure = { file: result.file, workflowId: result.workflowId, code: result.failure?.code ?? 'FAILED', message: result.failure?.message ?? 'failed' };
  if (result.row !== undefined) failure.row = result.row;
  if (result.iteration !== undefined) failure.iteration = result.iteration;
  if (result.failure?.stepId !== undefined) failure.stepId = result.failure.stepId;
  return failure;
}
