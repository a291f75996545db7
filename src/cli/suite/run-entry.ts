/**
 * One run of `arazzo test`: a workflow of a document through `arazzo run`'s own engine and
 * request pipeline (runWorkflowFile), quiet, its record collected instead of printed. The unit
 * later slices repeat (data rows, concurrency, shards): options in, a result as data out.
 */
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { ToolError } from '../../errors/tool-error.js';
import { printableLine, stripControls } from '../../output/printable.js';
import { styleFor } from '../../output/style.js';
import type { ErrorKind } from '../../errors/error-codes.js';
import type { OutcomeKind } from '../../errors/outcome.js';
import type { StepRecord } from '../../../machines/types.js';
import { runWorkflowFile, type RunDeps, type RunIO, type RunOptions } from '../../run/run-workflow.js';
import type { Pipeline } from '../../http/create-pipeline.js';
import type { ApiLookup } from '../../plan/bind-sources.js';
import type { RunMemo } from '../../plan/run-memo.js';
import type { GitHubSuite } from '../../observe/github/github-run.js';
import type { RegexWorker } from '../../execute/regex-worker.js';
import type { RecordFailure, RunRecord } from '../../run/run-record.js';
import type { SuiteEntry } from './plan-suite.js';

/** How one run of the suite ended. */
export interface SuiteResult {
  file: string;
  workflowId: string | undefined;
  /** With --data: the 1-based row the run was given. */
  row?: number;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  /** A failed run's step, code and message, as its record (or the error that stopped it) says. */
  failure?: RecordFailure;
  /** Why a run was skipped. */
  reason?: string;
  /** What ended it, as `arazzo run`'s exit code sees it: a failed run, an invalid document, a usage error, an interruption. */
  ended: OutcomeKind | ErrorKind;
  /** The run record's outputs and steps, when the run got as far as its record. */
  outputs?: Record<string, unknown>;
  steps?: StepRecord[];
  /** With --repeat or --duration: the 1-based pass over the suite the run belongs to. */
  iteration?: number;
  /** Each request (or message) its steps sent or received, in order: for the latency figures. */
  samples?: StepSample[];
}

/** One request of a step (a message of an asynchronous step): how long until its answer, and whether the step took it as a success. */
export interface StepSample {
  stepId: string;
  /** Undefined when no answer came (a transport error). */
  durationMs: number | undefined;
  ok: boolean;
}

/** What runs of one suite share: one pool of connections, one registry (and OAuth token refresh) for all. */
export interface SharedRunDeps {
  /** The pipeline for a run's timeout and retry settings (the suite's agents under each). */
  pipelineFor(options: RunOptions): Pipeline;
  registry?: ApiLookup;
  /** Documents read and validated, and descriptions read, once for all the runs. */
  memo?: RunMemo;
  /** One regex worker for all the runs (its test is synchronous, so runs never share it at once); the suite stops it. */
  regexWorker?: () => RegexWorker;
  /** GitHub Actions: the suite's command-processing token, its one summary, its cap on annotations (github-run.ts). */
  githubSuite?: GitHubSuite;
}

/** The streams and signal a run writes to: stderr gets its warnings and an invalid document's findings. */
export type EntryIO = Omit<RunIO, 'stdout'>;

/** Runs one entry (or skips it); returns its result. Throws only what is not a ToolError (a bug). */
export async function runSuiteEntry(entry: SuiteEntry, io: EntryIO, shared?: SharedRunDeps): Promise<SuiteResult> {
  const base = { file: entry.file, workflowId: entry.workflowId, ...(entry.row !== undefined ? { row: entry.row } : {}) };
  if (entry.skip !== undefined) return { ...base, status: 'skipped', durationMs: 0, reason: entry.skip, ended: 'succeeded' };
  if (entry.loadError) return { ...base, status: 'failed', durationMs: 0, failure: failureOf(entry.loadError, io), ended: entry.loadError.kind };
  const started = performance.now();
  const chunks: Buffer[] = [];
  // The record, in JSON with the bound APIs' credentials masked, as `arazzo run` prints it.
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  const elapsed = () => Math.round(performance.now() - started);
  const samples: StepSample[] = [];
  const deps: RunDeps = {
    observe(events) {
      events.on('step.response', ({ stepId, response, ok }) => samples.push({ stepId, durationMs: response?.durationMs, ok }));
      events.on('step.message', ({ stepId, action, durationMs, ok }) => {
        if (action !== 'launch') samples.push({ stepId, durationMs, ok });
      });
    },
  };
  if (shared !== undefined) {
    deps.pipeline = shared.pipelineFor(entry.options);
    if (shared.registry !== undefined) deps.registry = shared.registry;
    if (shared.memo !== undefined) deps.memo = shared.memo;
    if (shared.githubSuite !== undefined) deps.githubSuite = shared.githubSuite;
    if (shared.regexWorker !== undefined) deps.regexWorker = shared.regexWorker;
  }
  try {
    const outcome = await runWorkflowFile({ ...entry.options, output: 'json', quiet: true }, { ...io, stdout }, deps);
    const durationMs = elapsed();
    if (outcome.kind === 'invalid-document') {
      return { ...base, status: 'failed', durationMs, failure: { code: 'INVALID_DOCUMENT', message: 'invalid document (its findings are above); nothing was sent' }, ended: outcome.kind };
    }
    const record = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RunRecord;
    const result: SuiteResult = { ...base, workflowId: record.workflowId, status: outcome.kind === 'succeeded' ? 'passed' : 'failed', durationMs, ended: outcome.kind, outputs: record.outputs, steps: record.steps, samples };
    if (record.failure) result.failure = record.failure;
    return result;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { ...base, status: 'failed', durationMs: elapsed(), failure: failureOf(error, io), ended: error.kind, samples };
  }
}

/** The failure of a run an error stopped: printed on stderr as `arazzo run` prints it (with its hint), kept as one line. */
function failureOf(error: ToolError, io: EntryIO): RecordFailure {
  const style = styleFor(io.colors);
  io.stderr.write(`${style.red('error:')} ${printableLine(error.message)}\n${error.hint ? `  ${stripControls(error.hint)}\n` : ''}`);
  return { code: error.code, message: printableLine(error.message) };
}
