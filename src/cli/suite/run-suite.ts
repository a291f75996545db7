/**
 * `tool arazzo test`: every selected workflow of every document, one after the other, each a run
 * of `arazzo run`'s engine (run-entry.ts); with --data, the one selected workflow once per row.
 * stderr gets a line per run as it finishes and the summary; stdout only the suite's JSON summary;
 * `--results` a JSON line per run.
 */
import { performance } from 'node:perf_hooks';
import type { ToolContext } from '../context.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { styleFor } from '../../output/style.js';
import { collectDocuments } from './collect-documents.js';
import { planSuite, type SuiteFlags } from './plan-suite.js';
import { openDataRows } from './data-rows.js';
import { openResultsFile, type ResultsFile } from './results-file.js';
import { selectDataEntry } from './row-entries.js';
import type { SuiteResult } from './run-entry.js';
import { suiteRuns, type DataRun } from './suite-runs.js';
import { resultLine, summaryLine } from './suite-lines.js';

/** The option values of `tool arazzo test`. */
export interface SuiteOptions extends SuiteFlags {
  /** Files, folders and globs; none means the working directory. */
  files: string[];
  /** --bail: no run starts after the first failure. */
  bail: boolean;
  /** --results: the JSON Lines file each finished run is appended to. */
  results: string | undefined;
  /** --data: the CSV, JSON Lines or JSON file of rows the one selected workflow runs once each. */
  data?: string | undefined;
}

/** A run in the JSON summary on stdout: the result without the record's outputs and steps. */
type SummaryRun = Pick<SuiteResult, 'file' | 'row' | 'status' | 'durationMs' | 'failure' | 'reason'> & { workflowId: string | null };

/**
 * Runs the suite; returns the exit code: 0 all passed (skips too), 1 a run failed, 10 a document
 * was invalid, 2 a run stopped on a usage or configuration error, 130 interrupted (the summary and
 * the results so far are still written). Throws ToolError (exit 2) before any run: no document
 * matched, a bad flag, --data with more than one workflow selected or a data file that cannot be
 * read, an unwritable --results file.
 */
export async function runSuite(options: SuiteOptions, context: ToolContext): Promise<number> {
  const started = performance.now();
  const style = styleFor(context.colors);
  const files = await collectDocuments(options.files, context.cwd);
  const entries = await planSuite(files, options, context);
  const dataEntry = options.data !== undefined ? selectDataEntry(entries, options.data) : undefined;
  const rows = options.data !== undefined ? await openDataRows(options.data, context.cwd) : undefined;
  const data: DataRun | undefined = dataEntry !== undefined && rows !== undefined ? { entry: dataEntry, rows } : undefined;
  let results: ResultsFile | undefined;
  const runs: SummaryRun[] = [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  let code: number = EXIT.OK;
  let interrupted = false;
  let stopped = false;
  // Runs left unstarted by --bail or Ctrl-C, counted by reading on (rows too) without running them.
  let notRun = 0;
  try {
    results = options.results !== undefined ? await openResultsFile(options.results, context.cwd) : undefined;
    for await (const start of suiteRuns(entries, data, { stderr: context.stderr, cwd: context.cwd, colors: context.colors, signal: context.signal, env: context.env })) {
      if (!stopped && context.signal.aborted) interrupted = stopped = true;
      if (stopped) {
        notRun++;
        continue;
      }
      const result = await start();
      context.stderr.write(`${resultLine(result, style)}\n`);
      await results?.write(result);
      runs.push(summaryRun(result));
      counts[result.status]++;
      code = worse(code, exitCodeFor(result.ended));
      if (result.ended === 'interrupted') interrupted = stopped = true;
      if (options.bail && result.status === 'failed') stopped = true;
      // An invalid document fails every row alike (its findings printed each time): one row says it.
      if (result.row !== undefined && result.ended === 'invalid-document') stopped = true;
    }
  } finally {
    await results?.close();
    await rows?.close();
  }
  const durationMs = Math.round(performance.now() - started);
  context.stderr.write(`${summaryLine({ ...counts, notRun, documents: files.length, durationMs }, style)}\n`);
  const summary = { ...counts, notRun, durationMs, documents: files, runs };
  context.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return interrupted ? EXIT.INTERRUPTED : code;
}

/** Which exit code the suite keeps: an interruption, then a usage or configuration error, then an invalid document, then a failed run. */
const PRECEDENCE: readonly number[] = [EXIT.INTERRUPTED, EXIT.INTERNAL, EXIT.USAGE, EXIT.INVALID_DOCUMENT, EXIT.RUN_FAILED, EXIT.OK];

function worse(a: number, b: number): number {
  return PRECEDENCE.indexOf(a) <= PRECEDENCE.indexOf(b) ? a : b;
}

function summaryRun(result: SuiteResult): SummaryRun {
  const run: SummaryRun = { file: result.file, workflowId: result.workflowId ?? null, ...(result.row !== undefined ? { row: result.row } : {}), status: result.status, durationMs: result.durationMs };
  if (result.failure) run.failure = result.failure;
  if (result.reason !== undefined) run.reason = result.reason;
  return run;
}
