/**
 * `tool arazzo test`: every selected workflow of every document, each a run of `arazzo run`'s
 * engine (run-entry.ts); with --data, the one selected workflow once per row; with --concurrency
 * up to N at once (one pool of connections, one registry); with --repeat, --duration and --rate, a
 * load run with latency figures and --threshold checks; with --shard, this process's slice; with
 * --resume, what a results file does not already hold. stderr gets a line per run as it finishes
 * (failures only under load), a progress bar on a terminal and the summary; stdout only the
 * suite's JSON summary, streamed; `--results` a JSON line per run; `--report`, `--junit` and
 * `--html` the suite's report files when it ends (suite-reports.ts).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolContext } from '../context.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { styleFor } from '../../output/style.js';
import { printableLine } from '../../output/printable.js';
import { ToolError } from '../../errors/tool-error.js';
import { createPipeline, type Pipeline } from '../../http/create-pipeline.js';
import { loadApiLookup } from '../../plan/api-lookup.js';
import { createRunMemo, type RunMemo } from '../../plan/run-memo.js';
import { createRegexWorker, type RegexWorker } from '../../execute/regex-worker.js';
import type { RunOptions } from '../../run/run-workflow.js';
import { collectDocuments } from './collect-documents.js';
import { planSuite, type SuiteFlags } from './plan-suite.js';
import { openDataRows } from './data-rows.js';
import { openResultsFile, readFinishedRuns, resultRecord, runKey, type ResultsFile } from './results-file.js';
import { selectDataEntry } from './row-entries.js';
import type { SharedRunDeps, SuiteResult } from './run-entry.js';
import { suiteRuns, type DataRun, type Passes } from './suite-runs.js';
import { figuresLines, resultLine, summaryLine, thresholdLine } from './suite-lines.js';
import { readLoadFlags, type LoadFlagValues } from './load-flags.js';
import { SuiteLatency, statsData, statsFigures } from '../../suite/latency.js';
import { checkThresholds, parseThresholds, type ThresholdVerdict } from '../../suite/thresholds.js';
import { startSummary } from '../../suite/summary-output.js';
import { createProgress } from '../../suite/progress-bar.js';
import { onceWarnings } from '../../suite/once-warnings.js';
import { suiteGitHub } from './suite-github.js';
import { openSuiteReports, type SuiteReportFiles, type SuiteReportTargets } from './suite-reports.js';
import { SUITE_REPORT_FORMAT } from './suite-report.js';
import type { RunLine } from './suite-junit.js';

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
  /** --concurrency, --repeat, --duration, --rate, --shard. */
  load?: LoadFlagValues;
  /** --threshold: conditions on the figures (k6's convention). */
  thresholds?: readonly string[];
  /** --resume: a results file whose finished runs are not run again (new lines are appended to it unless --results names another file). */
  resume?: string | undefined;
  /** --report, --junit, --html: the suite's report files, written when it ends. */
  reports?: SuiteReportTargets;
}

/**
 * Runs the suite; returns the exit code: 0 all passed (skips too), 1 a run failed or a threshold
 * did not hold, 10 a document was invalid, 2 a run stopped on a usage or configuration error, 130
 * interrupted (the summary and the results so far are still written). Throws ToolError (exit 2)
 * before any run: no document matched, a bad flag, --data with more than one workflow selected or
 * a data file that cannot be read, an unwritable --results file, an unreadable --resume file;
 * FileError (exit 2) for an unwritable --report, --junit or --html file.
 */
export async function runSuite(options: SuiteOptions, context: ToolContext): Promise<number> {
  const started = performance.now();
  const startedAt = new Date();
  const style = styleFor(context.colors);
  const load = readLoadFlags(options.load ?? {}, context.env);
  const thresholds = parseThresholds(options.thresholds ?? []);
  const files = await collectDocuments(options.files, context.cwd);
  // The suite reads each document once: to plan, and for every run of it.
  const memo = createRunMemo();
  const entries = await planSuite(files, options, context, memo);
  const dataEntry = options.data !== undefined ? selectDataEntry(entries, options.data) : undefined;
  const finished = options.resume !== undefined ? await readFinishedRuns(options.resume, context.cwd) : undefined;
  const resultsPath = options.results ?? options.resume;
  const rows = options.data !== undefined ? await openDataRows(options.data, context.cwd) : undefined;
  const data: DataRun | undefined = dataEntry !== undefined && rows !== undefined && options.data !== undefined ? { entry: dataEntry, rows, open: () => openDataRows(options.data!, context.cwd) } : undefined;
  const shared = await sharedDeps(context.env, memo);
  // GitHub Actions: one stop of command processing around all the runs, one summary (suite-github.ts).
  const github = suiteGitHub(context.env, context.cwd, context.stderr);
  if (github !== undefined) shared.deps.githubSuite = github.runs;
  const latency = new SuiteLatency();
  const counts = { passed: 0, failed: 0, skipped: 0 };
  let code: number = EXIT.OK;
  let interrupted = false;
  let stopped = false;
  // Runs left unstarted by --bail or Ctrl-C, counted by reading on (rows too) without running them.
  let notRun = 0;
  // --resume: runs the results file already holds; --rate: starts that found --concurrency runs in flight.
  let resumed = 0;
  let dropped = 0;
  // --duration counts from the first run's start (planning, reading the documents, is not load).
  let deadline: number | undefined;
  // Rates are over the time runs ran: from the first start to the end.
  let firstStart: number | undefined;
  const passes: Passes = {
    count: load.repeat ?? (load.durationMs !== undefined ? undefined : 1),
    more: () => !stopped && (deadline === undefined || performance.now() < deadline),
    inShard: (position) => load.shard === undefined || position % load.shard.total === load.shard.index - 1,
    done(key) {
      const done = finished?.has(runKey(key)) ?? false;
      if (done) resumed++;
      return done;
    },
  };
  const total = load.repeat !== undefined || load.durationMs === undefined ? knownTotal(entries, data, load.repeat ?? 1, load.shard) : undefined;
  const progress = createProgress(context.stderr, style, context.stderrIsTTY && !inCi(context.env), { total: finished === undefined ? total : undefined, durationMs: load.durationMs });
  // The runs' own stderr: above the progress bar, each warning once.
  const warnings = onceWarnings(progress.stderr);
  const io = { stderr: warnings.stream, cwd: context.cwd, colors: context.colors, signal: context.signal, env: context.env };
  let results: ResultsFile | undefined;
  let summary: ReturnType<typeof startSummary> | undefined;
  let reports: SuiteReportFiles | undefined;
  // The --results file could not be written any more.
  let resultsError: ToolError | undefined;

  const finish = async (result: SuiteResult) => {
    if (result.ended === 'interrupted') {
      // Not finished: counted as not run and left out of --results, so that --resume runs it again.
      interrupted = stopped = true;
      notRun++;
      progress.line(resultLine(result, style));
      return;
    }
    counts[result.status]++;
    if (result.status !== 'skipped') {
      const workflowId = result.workflowId ?? '(document)';
      latency.recordRun(result.file, workflowId, result.durationMs, result.status === 'passed');
      for (const sample of result.samples ?? []) latency.recordStep(result.file, workflowId, sample.stepId, sample.durationMs, sample.ok);
    }
    // Under load, the figures say how the passes went: a line for each failure, and for a skip once.
    if (!load.load || result.status === 'failed' || (result.status === 'skipped' && (result.iteration ?? 1) === 1)) progress.line(resultLine(result, style));
    progress.update({ done: counts.passed + counts.failed + counts.skipped, failed: counts.failed });
    const record = resultRecord(result, false);
    github?.finished(result);
    summary?.run(record);
    reports?.run(record as unknown as RunLine);
    code = worse(code, exitCodeFor(result.ended));
    if (options.bail && result.status === 'failed') stopped = true;
    // An invalid document fails every row alike (its findings printed each time): one row says it.
    if (result.row !== undefined && result.ended === 'invalid-document') stopped = true;
    await results?.write(result).catch((error: unknown) => {
      if (!(error instanceof ToolError)) throw error;
      // A full disk: the runs would go unrecorded (and --resume would run them again), so none more starts.
      resultsError ??= error;
      stopped = true;
      code = worse(code, exitCodeFor(error.kind));
    });
  };

  try {
    // Appended to when it is the --resume file, however the two flags spell its path: emptying it would lose the runs it holds.
    const appending = options.resume !== undefined && resultsPath !== undefined && resolve(context.cwd, resultsPath) === resolve(context.cwd, options.resume);
    results = resultsPath !== undefined ? await openResultsFile(resultsPath, context.cwd, appending) : undefined;
    reports = wantsReports(options.reports) ? await openSuiteReports(options.reports, context.cwd) : undefined;
    summary = startSummary(context.stdout);
    github?.stopCommands();
    const inFlight = new Set<Promise<void>>();
    let starts = 0;
    let rateStart: number | undefined;
    for await (const run of suiteRuns(entries, data, io, shared.deps, passes)) {
      if (!stopped && context.signal.aborted) interrupted = stopped = true;
      firstStart ??= performance.now();
      if (load.durationMs !== undefined) deadline ??= firstStart + load.durationMs;
      if (!stopped && deadline !== undefined && performance.now() >= deadline) break;
      if (stopped) {
        notRun++;
        continue;
      }
      if (load.ratePerSecond !== undefined) {
        // An open model: each run starts on its time, whether or not the earlier ones have finished; the clock starts with the first.
        rateStart ??= performance.now();
        const at = rateStart + (starts++ * 1000) / load.ratePerSecond;
        if (at > performance.now()) await sleep(at - performance.now(), undefined, { signal: context.signal }).catch(() => undefined);
        if (context.signal.aborted) interrupted = stopped = true;
        if (deadline !== undefined && performance.now() >= deadline) break;
        if (!stopped && inFlight.size >= load.concurrency) {
          dropped++;
          continue;
        }
      } else {
        while (inFlight.size >= load.concurrency) await Promise.race(inFlight);
        // The wait for a free slot may have outlasted --duration: no run starts after it.
        if (deadline !== undefined && performance.now() >= deadline) break;
      }
      if (stopped) {
        notRun++;
        continue;
      }
      const task = run.start().then(finish);
      inFlight.add(task);
      void task.then(
        () => inFlight.delete(task),
        () => inFlight.delete(task),
      );
    }
    await Promise.all(inFlight);
  } catch (error) {
    await reports?.discard();
    github?.resumeCommands();
    throw error;
  } finally {
    progress.stop();
    await results?.close();
    await rows?.close();
    shared.close();
  }
  const ended = performance.now();
  const durationMs = Math.round(ended - started);
  const seconds = (ended - (firstStart ?? started)) / 1000;
  const verdicts: ThresholdVerdict[] = checkThresholds(thresholds, latency, seconds);
  if (verdicts.some((verdict) => !verdict.ok)) code = worse(code, EXIT.RUN_FAILED);
  const stats = statsFigures(latency, seconds);
  if (load.load || thresholds.length > 0) for (const line of figuresLines(stats, style)) context.stderr.write(`${line}\n`);
  for (const verdict of verdicts) context.stderr.write(`${thresholdLine(verdict, style)}\n`);
  if (resultsError !== undefined) context.stderr.write(`${style.red('error:')} ${printableLine(resultsError.message)}\n${resultsError.hint ? `  ${resultsError.hint}\n` : ''}`);
  if (warnings.repeats() > 0) context.stderr.write(`${style.dim(`(${warnings.repeats()} repeated warning${warnings.repeats() === 1 ? '' : 's'} not shown)`)}\n`);
  context.stderr.write(`${summaryLine({ ...counts, notRun, resumed, dropped, documents: files.length, durationMs }, style)}\n`);
  const fields = {
    ...counts,
    notRun,
    ...(finished !== undefined ? { resumed } : {}),
    ...(load.ratePerSecond !== undefined ? { dropped } : {}),
    durationMs,
    startedAt: startedAt.toISOString(),
    documents: files,
    ...(load.shard !== undefined ? { shard: load.shard } : {}),
    stats,
    ...(verdicts.length > 0 ? { thresholds: verdicts } : {}),
  };
  summary?.end(fields);
  // A report that cannot be written is a warning: the exit code stays the suite's, as for `arazzo run`.
  await reports?.write({ format: SUITE_REPORT_FORMAT, ...fields, endedAt: new Date().toISOString(), statsData: statsData(latency) }).catch((error: Error) => context.stderr.write(`${style.yellow('warning:')} ${error.message}\n`));
  await github?.writeSummary({ ...counts, notRun, documents: files.length, durationMs, thresholds: verdicts, ...(load.load ? { figures: stats } : {}) }).catch((error: Error) => context.stderr.write(`${style.yellow('warning:')} ${printableLine(error.message)}\n`));
  github?.resumeCommands();
  return interrupted ? EXIT.INTERRUPTED : code;
}

/** Which exit code the suite keeps: an interruption, then a usage or configuration error, then an invalid document, then a failed run. */
const PRECEDENCE: readonly number[] = [EXIT.INTERRUPTED, EXIT.INTERNAL, EXIT.USAGE, EXIT.INVALID_DOCUMENT, EXIT.RUN_FAILED, EXIT.OK];

function worse(a: number, b: number): number {
  return PRECEDENCE.indexOf(a) <= PRECEDENCE.indexOf(b) ? a : b;
}

/**
 * What every run of the suite shares: one pair of keep-alive agents under a pipeline per
 * timeout and retry setting; one registry, read once, whose OAuth schemes refresh a token once
 * for all the runs in flight; a memo, so that each document is read and validated, and each
 * description read, once; and one regex worker thread. Throws ConfigError for a broken registry (nothing has run).
 */
async function sharedDeps(env: Record<string, string | undefined>, memo: RunMemo): Promise<{ deps: SharedRunDeps; close(): void }> {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const pipelines = new Map<string, Pipeline>();
  const pipelineFor = (options: Pick<RunOptions, 'timeoutMs' | 'retry' | 'retryUnsafe'>) => {
    const key = `${options.timeoutMs}/${options.retry}/${options.retryUnsafe}`;
    let pipeline = pipelines.get(key);
    if (pipeline === undefined) {
      pipeline = createPipeline({ timeoutMs: options.timeoutMs, retry: options.retry, retryUnsafe: options.retryUnsafe, agents });
      pipelines.set(key, pipeline);
    }
    return pipeline;
  };
  // Token requests go with the defaults of `arazzo run` (30 s, 2 retries).
  const registry = await loadApiLookup({ env, pipeline: pipelineFor({ timeoutMs: 30_000, retry: 2, retryUnsafe: false }) });
  // One regex thread for the suite, made when a run first tests a pattern: each run stops "its" worker when it ends, which here stops nothing.
  let worker: RegexWorker | undefined;
  const regexWorker = (): RegexWorker => {
    const shared = (worker ??= createRegexWorker());
    return { test: (pattern, text, limitMs) => shared.test(pattern, text, limitMs), stop: () => undefined, get running() { return shared.running; } };
  };
  return {
    deps: { pipelineFor, registry, memo, regexWorker },
    close() {
      agents.http.destroy();
      agents.https.destroy();
      worker?.stop();
    },
  };
}

/** How many runs the progress bar counts to, when that is known before they run (no --data rows to read). */
function knownTotal(entries: readonly unknown[], data: DataRun | undefined, passes: number, shard: { index: number; total: number } | undefined): number | undefined {
  if (data !== undefined) return undefined;
  const perPass = shard === undefined ? entries.length : Math.floor(entries.length / shard.total) + (shard.index - 1 < entries.length % shard.total ? 1 : 0);
  return perPass * passes;
}

function wantsReports(targets: SuiteReportTargets | undefined): targets is SuiteReportTargets {
  return targets !== undefined && (targets.report !== undefined || targets.junit !== undefined || targets.html !== undefined);
}

function inCi(env: Record<string, string | undefined>): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}
