import type { ReportTargets } from '../run/report/run-reports.js';

/** The descriptions of the report flags, the same on `arazzo run` and `arazzo replay`. */
export const REPORT_FLAG_DESCRIPTIONS = {
  report: 'Write a JSON report of every step run (request, response, criteria with their operands, actions; secrets as ***) to this file; see docs/reports.md',
  har: 'Write every request and response as HAR 1.2 (secrets as ***) to this file, for browser dev tools and tool arazzo replay',
  junit: 'Write JUnit XML to this file: the workflow is a testsuite, each step run a testcase, a failed one a failure',
} as const;

/** The files to write about a run, or undefined when no report flag is given (the run then loads none of their code). */
export function reportTargets(flags: { report?: string; har?: string; junit?: string }, replayOf?: string): ReportTargets | undefined {
  if (flags.report === undefined && flags.har === undefined && flags.junit === undefined) return undefined;
  const targets: ReportTargets = {};
  if (flags.report !== undefined) targets.report = flags.report;
  if (flags.har !== undefined) targets.har = flags.har;
  if (flags.junit !== undefined) targets.junit = flags.junit;
  if (replayOf !== undefined) targets.replayOf = replayOf;
  return targets;
}
