/**
 * `--report`, `--junit` and `--html` of `arazzo test` and `merge-reports`: the files are opened
 * before anything runs (an unwritable path is a usage error, exit 2), fed each finished run (a
 * testcase streamed to disk, a failure kept while under the cap) and written when the suite ends,
 * also after --bail and Ctrl-C. Memory holds the capped failures and the per-document counts, not
 * the runs.
 */
import type { ToolError } from '../../errors/tool-error.js';
import type { OutputFile } from '../../observe/report/output-file.js';
import { openJunitAssembly, type JunitAssembly } from './junit-assembly.js';
import { suiteHtml } from './suite-html.js';
import { testcaseXml, type RunLine } from './suite-junit.js';
import { FailureList, type SuiteReport } from './suite-report.js';

/** The report files asked for (paths relative to the working directory). */
export interface SuiteReportTargets {
  report?: string | undefined;
  junit?: string | undefined;
  html?: string | undefined;
}

export interface SuiteReportFiles {
  /** The failed runs so far, capped, for the report, the page and merge-reports' summary. */
  readonly failures: FailureList;
  /** A finished run (as resultRecord gives it): a testcase of its document's suite, and a failure when it failed. */
  run(run: RunLine): void;
  /** A testcase read from a shard's JUnit file (merge-reports), already one line of escaped XML. */
  testcase(suite: string, caseXml: string, outcome: RunLine['status'], seconds: number): void;
  /** Writes every file; rejects with the first REPORT_WRITE_FAILED ToolError once all were tried. */
  write(report: Omit<SuiteReport, 'failures' | 'failuresOmitted'>): Promise<void>;
  /** Removes the temporary files, writing nothing. */
  discard(): Promise<void>;
}

/** Opens the files of `targets`. Throws FileError (exit 2) naming the flag and path that cannot be written, having removed what it opened. */
export async function openSuiteReports(targets: SuiteReportTargets, cwd: string): Promise<SuiteReportFiles> {
  let report: OutputFile | undefined;
  let html: OutputFile | undefined;
  let junit: JunitAssembly | undefined;
  // The report modules load only when a report is asked for (test/unit/observe/report-lazy.test.ts).
  const { openOutputFile } = await import('../../observe/report/output-file.js');
  const discard = async () => {
    await report?.discard();
    await html?.discard();
    await junit?.discard();
  };
  try {
    if (targets.report !== undefined) report = await openOutputFile(targets.report, cwd, '--report');
    if (targets.junit !== undefined) junit = await openJunitAssembly(targets.junit, cwd, '--junit');
    if (targets.html !== undefined) html = await openOutputFile(targets.html, cwd, '--html');
  } catch (error) {
    await discard();
    throw error;
  }
  const failures = new FailureList();
  return {
    failures,
    run(run) {
      if (run.status === 'failed') failures.add(run as unknown as Record<string, unknown>);
      junit?.add(run.file, testcaseXml(run), run.status, run.durationMs / 1000);
    },
    testcase(suite, caseXml, outcome, seconds) {
      junit?.add(suite, caseXml, outcome, seconds);
    },
    async write(fields) {
      const whole: SuiteReport = { ...fields, ...failures.fields() };
      report?.write(`${JSON.stringify(whole, null, 2)}\n`);
      html?.write(suiteHtml(whole));
      const results = await Promise.allSettled([report?.commit(), junit?.commit(), html?.commit()]);
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason as ToolError;
    },
    discard,
  };
}
