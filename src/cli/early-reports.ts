/**
 * The report files of a run that stopped on a flag's value, before the run could open them itself
 * (an unset `--input-env` variable, a bad `--inputs-file`, replay's `--from`): written with that
 * error, as an early stop after the document was read writes them (docs/reports.md), so a CI test
 * reporter finds the files whatever stopped the run.
 */
import { ToolError } from '../errors/tool-error.js';
import type { ReportTargets } from '../observe/report/run-reports.js';

/**
 * Runs `work` and returns what it returns. When it throws a ToolError, writes the files `targets`
 * names (if its flags are good) with that error, then throws it again: the user sees the same
 * message and exit code as without reports. A report that cannot be written is left unsaid, so the
 * error printed is the one that stopped the run.
 */
export async function reportingFlagErrors<T>(targets: () => ReportTargets | undefined, run: { file: string; workflowId?: string | undefined }, cwd: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    let files: ReportTargets | undefined;
    try {
      files = targets();
    } catch {
      throw error;
    }
    if (files !== undefined) {
      const [{ openRunReports }, { stopOfError }] = await Promise.all([import('../observe/report/run-reports.js'), import('../run/run-stop.js')]);
      const reports = await openRunReports({ reports: files, file: run.file }, cwd).catch(() => undefined);
      await reports?.stopped(stopOfError(error, run.workflowId)).catch(() => undefined);
      await reports?.close().catch(() => undefined);
    }
    throw error;
  }
}
