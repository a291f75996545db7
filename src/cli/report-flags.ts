import { resolve } from 'node:path';
import { CommandUsageError } from '../errors/tool-error.js';
import type { ReportTargets } from '../observe/report/run-reports.js';

/** The descriptions of the report flags, the same on `arazzo run` and `arazzo replay`. */
export const REPORT_FLAG_DESCRIPTIONS = {
  report: 'Write a JSON report of every step run (request, response, criteria with their operands, actions; secrets as ***) to this file; see docs/reports.md',
  har: 'Write every request and response as HAR 1.2 (secrets as ***) to this file, for browser dev tools and tool arazzo replay',
  junit: 'Write JUnit XML to this file: the workflow is a testsuite, each step run a testcase, a failed one a failure',
} as const;

/**
 * The files to write about a run, or undefined when no report flag is given (the run then loads
 * none of their code). Throws CommandUsageError (exit 2) when two flags name the same file.
 */
export function reportTargets(flags: { report?: string; har?: string; junit?: string }, cwd: string, replayOf?: string): ReportTargets | undefined {
  const given = (['report', 'har', 'junit'] as const).filter((flag) => flags[flag] !== undefined);
  if (given.length === 0) return undefined;
  const targets: ReportTargets = {};
  const seen = new Map<string, string>();
  for (const flag of given) {
    const path = flags[flag]!;
    const same = seen.get(resolve(cwd, path));
    if (same !== undefined) throw new CommandUsageError(`--${same} and --${flag} both name ${path}`, 'Give each report its own file: --report run.json --har run.har --junit junit.xml.');
    seen.set(resolve(cwd, path), flag);
    targets[flag] = path;
  }
  if (replayOf !== undefined) targets.replayOf = replayOf;
  return targets;
}
