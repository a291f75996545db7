/**
 * `tool arazzo merge-reports`: the files of several shards of `arazzo test` made into one report
 * and summary. The counts and figures come from the suite reports when there are any (their
 * histograms added, the rates over the span from the first start to the last end), else from the
 * results files (each run once, by its key), else from the JUnit files; the merged JUnit file's
 * testcases from the JUnit files when there are any, else from the results files. A run (or
 * testcase) found twice is counted once, with a warning. Memory holds the capped failures, the
 * series and a short hash per run, never the runs.
 */
import type { ToolContext } from '../context.js';
import { ToolError } from '../../errors/tool-error.js';
import { EXIT } from '../exit-codes.js';
import { styleFor, type Style } from '../../output/style.js';
import { printableLine } from '../../output/printable.js';
import { statsData, statsFigures } from '../../suite/latency.js';
import { mergeInputs, type MergeInputs } from './merge-inputs.js';
import { readJunitCases, readResultLines, readSuiteReport } from './merge-readers.js';
import { MergedSuite, SeenRuns } from './merged-suite.js';
import { runKey } from './results-file.js';
import { testcaseName, testcaseXml } from './suite-junit.js';
import { FailureList, SUITE_REPORT_FORMAT } from './suite-report.js';
import { openSuiteReports, type SuiteReportFiles, type SuiteReportTargets } from './suite-reports.js';
import { thresholdLine } from './suite-lines.js';
import { checkThresholds, parseThresholds } from '../../suite/thresholds.js';

/** The arguments and options of `tool arazzo merge-reports`. */
export interface MergeOptions {
  /** Folders and files: .json suite reports, .jsonl results files, .xml JUnit files. */
  inputs: string[];
  /** --report, --junit, --html: the merged files. */
  reports: SuiteReportTargets;
  /** --threshold: conditions on the merged figures. */
  thresholds: readonly string[];
}

/** Duplicate runs named one by one on stderr; the others are counted in one line. */
const NAMED_DUPLICATES = 10;

/**
 * Merges; returns the exit code: 0 every run passed, 1 a run failed or a threshold did not hold.
 * Throws ToolError (exit 2) before writing anything: no input, an unreadable file, a file that is
 * not a shard's report, results or JUnit file (MERGE_INPUT_INVALID), an unwritable output, a bad
 * --threshold; REPORT_WRITE_FAILED (exit 1) when an output could not be written to the end.
 */
export async function mergeReports(options: MergeOptions, context: ToolContext): Promise<number> {
  const style = styleFor(context.colors);
  const thresholds = parseThresholds(options.thresholds);
  const inputs = await mergeInputs(options.inputs, context.cwd);
  const warn = (message: string) => context.stderr.write(`${style.yellow('warning:')} ${printableLine(message)}\n`);
  const wanted = options.reports.report !== undefined || options.reports.junit !== undefined || options.reports.html !== undefined;
  const files = wanted ? await openSuiteReports(options.reports, context.cwd) : undefined;
  const merged = new MergedSuite(files?.failures ?? new FailureList());
  let duplicates: number;
  try {
    duplicates = await readInputs(inputs, merged, files, context.cwd, warn);
  } catch (error) {
    await files?.discard();
    throw error;
  }
  for (const warning of merged.shardWarnings()) warn(warning);

  const now = Date.now();
  const startedAt = merged.startedAt ?? now;
  const endedAt = Math.max(merged.endedAt ?? now, startedAt);
  const durationMs = endedAt - startedAt;
  // Without reports there is no span to count a rate over: the rates are 0.
  const seconds = durationMs / 1000;
  const verdicts = checkThresholds(thresholds, merged.latency, seconds);
  const fields = {
    format: SUITE_REPORT_FORMAT,
    ...merged.counts,
    ...(merged.resumed !== undefined ? { resumed: merged.resumed } : {}),
    ...(merged.dropped !== undefined ? { dropped: merged.dropped } : {}),
    durationMs,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
    documents: [...merged.documents],
    shards: merged.shards.map(({ index, total }) => ({ index, total })),
    inputs: { reports: inputs.reports.length, results: inputs.results.length, junit: inputs.junit.length },
    duplicates,
    stats: statsFigures(merged.latency, seconds),
    ...(verdicts.length > 0 ? { thresholds: verdicts } : {}),
  };
  context.stdout.write(`${JSON.stringify({ ...fields, ...merged.failures.fields() }, null, 2)}\n`);
  for (const verdict of verdicts) context.stderr.write(`${thresholdLine(verdict, style)}\n`);
  const counted = inputs.reports.length > 0 ? inputs.reports.length : inputs.results.length > 0 ? inputs.results.length : inputs.junit.length;
  context.stderr.write(`${mergeSummaryLine({ ...merged.counts, shards: counted, duplicates, documents: merged.documents.size, durationMs }, style)}\n`);
  await files?.write({ ...fields, statsData: statsData(merged.latency) });
  return merged.counts.failed > 0 || verdicts.some((verdict) => !verdict.ok) ? EXIT.RUN_FAILED : EXIT.OK;
}

/** Reads every input into `merged` and the merged JUnit file; returns how many duplicate runs and testcases were found. */
async function readInputs(inputs: MergeInputs, merged: MergedSuite, files: SuiteReportFiles | undefined, cwd: string, warn: (message: string) => void): Promise<number> {
  for (const path of inputs.reports) {
    const report = await readSuiteReport(path, cwd);
    try {
      merged.addReport(report, path);
    } catch (error) {
      // Its fields are there but not as a report has them (a histogram that does not decode, a series without its counts).
      throw new ToolError('MERGE_INPUT_INVALID', `${path} is not a suite report of \`tool arazzo test --report\` (its figures cannot be read: ${(error as Error).message})`, 'merge-reports reads the --report (.json), --results (.jsonl) and --junit (.xml) files of `tool arazzo test`.');
    }
  }
  const countRuns = inputs.reports.length === 0;
  const casesFromRuns = inputs.junit.length === 0;
  let duplicates = 0;
  const duplicate = (message: string) => {
    if (++duplicates <= NAMED_DUPLICATES) warn(`${message}; counted once`);
  };

  const runs = new SeenRuns();
  for (const [index, path] of inputs.results.entries()) {
    await readResultLines(
      path,
      cwd,
      (run) => {
        const key = runKey({ file: run.file, workflowId: run.workflowId ?? undefined, ...(run.row !== undefined ? { row: run.row } : {}), ...(run.iteration !== undefined ? { iteration: run.iteration } : {}) });
        const earlier = runs.firstFrom(key, index);
        if (earlier !== undefined) return duplicate(`${path}: the run ${run.file} › ${testcaseName(run)} is also in ${inputs.results[earlier]}`);
        if (countRuns) merged.addRun(run);
        if (casesFromRuns) files?.testcase(run.file, testcaseXml(run), run.status, run.durationMs / 1000);
      },
      (line) => warn(`${path} line ${line} is cut short (a shard stopped while writing it): left out`),
    );
  }

  const countCases = countRuns && inputs.results.length === 0;
  const cases = new SeenRuns();
  for (const [index, path] of inputs.junit.entries()) {
    await readJunitCases(path, cwd, (testcase) => {
      const earlier = cases.firstFrom(`${testcase.suite}\u0000${testcase.name}`, index);
      if (earlier !== undefined) return duplicate(`${path}: the testcase ${testcase.suite} › ${testcase.name} is also in ${inputs.junit[earlier]}`);
      if (countCases) merged.addCase(testcase);
      files?.testcase(testcase.suite, testcase.xml, testcase.outcome, testcase.seconds);
    });
  }
  if (duplicates > NAMED_DUPLICATES) warn(`${duplicates - NAMED_DUPLICATES} more runs found twice; each counted once`);
  return duplicates;
}

interface MergeCounts {
  passed: number;
  failed: number;
  skipped: number;
  notRun: number;
  shards: number;
  duplicates: number;
  documents: number;
  durationMs: number;
}

/** `9 passed, 1 failed, 0 skipped (3 shards, 2 documents, 1840 ms)`, with `, N not run` and `, N found twice` when there are. */
function mergeSummaryLine(counts: MergeCounts, style: Style): string {
  const failed = `${counts.failed} failed`;
  const extra = `${counts.notRun > 0 ? `, ${counts.notRun} not run` : ''}${counts.duplicates > 0 ? `, ${counts.duplicates} found twice` : ''}`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${style.green(`${counts.passed} passed`)}, ${counts.failed > 0 ? style.red(failed) : failed}, ${counts.skipped} skipped${extra} ${style.dim(`(${plural(counts.shards, 'shard')}, ${plural(counts.documents, 'document')}, ${counts.durationMs} ms)`)}`;
}
