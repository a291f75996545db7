/**
 * Reading the shards' files back for merge-reports: a suite report whole (its size is bounded:
 * figures, histograms and at most 1000 failures), a results file and a JUnit file a line at a
 * time, so that merging does not hold the runs. What is not such a file is a MERGE_INPUT_INVALID
 * error naming the file (and the line).
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { FileError, ToolError } from '../../errors/tool-error.js';
import { isSuiteReport, SUITE_REPORT_FORMAT, type SuiteReport } from './suite-report.js';
import { attr, JUNIT_NAME, unescapeXml, type RunLine } from './suite-junit.js';

const HINT = 'merge-reports reads the --report (.json), --results (.jsonl) and --junit (.xml) files of `tool arazzo test`.';

/** A suite report. Throws FileError when it cannot be read, MERGE_INPUT_INVALID when it is not a suite report. */
export async function readSuiteReport(path: string, cwd: string): Promise<SuiteReport> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw unreadable(path, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(`${path} is not JSON (${(error as Error).message})`);
  }
  if (!isSuiteReport(value)) throw invalid(`${path} is not a suite report of \`tool arazzo test --report\` (no "format": "${SUITE_REPORT_FORMAT}" with its counts and histograms)`);
  return value;
}

/**
 * Calls `onRun` with each run of a results file. A line that is not a run fails the merge, except
 * the last one, which a killed shard may have cut short: `onCutLine` is told, and it is left out.
 */
export async function readResultLines(path: string, cwd: string, onRun: (run: RunLine) => void, onCutLine: (line: number) => void): Promise<void> {
  let bad: { line: number; problem: string } | undefined;
  let line = 0;
  await eachLine(path, cwd, (text) => {
    line++;
    if (text.trim() === '') return;
    if (bad !== undefined) throw invalid(`${path} line ${bad.line} ${bad.problem}`);
    const run = runOf(text);
    if (typeof run === 'string') bad = { line, problem: run };
    else onRun(run);
  });
  if (bad !== undefined) onCutLine(bad.line);
}

/** The run of a results line, or what is wrong with it. */
function runOf(text: string): RunLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `is not JSON (${(error as Error).message})`;
  }
  const run = value as Record<string, unknown>;
  const status = run?.status;
  if (typeof value !== 'object' || value === null || typeof run.file !== 'string' || (status !== 'passed' && status !== 'failed' && status !== 'skipped') || typeof run.durationMs !== 'number') {
    return 'is not a run of a --results file (an object with file, status and durationMs)';
  }
  // The fields the merged files print must have the types `arazzo test` writes them with.
  const failure = run.failure as Record<string, unknown> | undefined;
  const typed =
    (run.workflowId === undefined || run.workflowId === null || typeof run.workflowId === 'string') &&
    (run.row === undefined || typeof run.row === 'number') &&
    (run.iteration === undefined || typeof run.iteration === 'number') &&
    (run.reason === undefined || typeof run.reason === 'string') &&
    (failure === undefined || (typeof failure === 'object' && failure !== null && typeof failure.code === 'string' && typeof failure.message === 'string' && ['workflowId', 'stepId'].every((key) => failure[key] === undefined || typeof failure[key] === 'string')));
  if (!typed) return 'is not a run of a --results file (its workflowId, row, iteration, reason or failure is not of the type arazzo test writes)';
  return value as RunLine;
}

/** A testcase of a shard's JUnit file: its suite and attributes (unescaped), and the testcase written again from them (one line). */
export interface JunitCase {
  suite: string;
  name: string;
  classname: string;
  seconds: number;
  outcome: RunLine['status'];
  failure?: { code: string; message: string };
  xml: string;
}

const SUITE = /^\s*<testsuite name="([^"]*)"/;
const CASE = /^\s*(<testcase name="([^"]*)" classname="([^"]*)" time="([0-9.]+)".*)$/;
const FAILURE = /<failure message="([^"]*)" type="([^"]*)"/;
const SKIPPED = /<skipped message="([^"]*)"/;

/**
 * Calls `onCase` with each testcase of a JUnit file `arazzo test --junit` wrote (a testcase per
 * line). Throws MERGE_INPUT_INVALID for another XML file: its testcases could not be read a line
 * at a time.
 */
export async function readJunitCases(path: string, cwd: string, onCase: (testcase: JunitCase) => void): Promise<void> {
  let line = 0;
  let ours = false;
  let suite: string | undefined;
  await eachLine(path, cwd, (text) => {
    line++;
    if (!ours) {
      if (text.includes(`<testsuites name="${JUNIT_NAME}"`)) ours = true;
      else if (line >= 2) throw invalid(`${path} is not the --junit file of \`tool arazzo test\` (no <testsuites name="${JUNIT_NAME}"> on its first lines)`);
      return;
    }
    const opened = SUITE.exec(text);
    if (opened !== null) {
      suite = unescapeXml(opened[1]!);
      return;
    }
    const found = CASE.exec(text);
    if (found === null) return;
    if (suite === undefined) throw invalid(`${path} line ${line} has a testcase outside a testsuite`);
    const failure = FAILURE.exec(text);
    const skipped = failure === null ? SKIPPED.exec(text) : null;
    const name = unescapeXml(found[2]!);
    const classname = unescapeXml(found[3]!);
    // Written again from what was read, never copied: whatever else the line holds stays out of the merged file.
    const open = `<testcase name="${attr(name)}" classname="${attr(classname)}" time="${found[4]!}"`;
    const xml =
      failure !== null
        ? `${open}><failure message="${attr(unescapeXml(failure[1]!))}" type="${attr(unescapeXml(failure[2]!))}"/></testcase>`
        : skipped !== null
          ? `${open}><skipped message="${attr(unescapeXml(skipped[1]!))}"/></testcase>`
          : `${open}/>`;
    const testcase: JunitCase = { suite, name, classname, seconds: Number(found[4]), outcome: failure !== null ? 'failed' : skipped !== null ? 'skipped' : 'passed', xml };
    if (failure !== null) testcase.failure = { message: unescapeXml(failure[1]!), code: unescapeXml(failure[2]!) };
    onCase(testcase);
  });
  if (!ours) throw invalid(`${path} is not the --junit file of \`tool arazzo test\` (no <testsuites name="${JUNIT_NAME}"> on its first lines)`);
}

async function eachLine(path: string, cwd: string, onLine: (text: string) => void): Promise<void> {
  const stream = createReadStream(resolve(cwd, path), { encoding: 'utf8' });
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) onLine(text);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw unreadable(path, error);
  } finally {
    stream.destroy();
  }
}

function unreadable(path: string, error: unknown): FileError {
  return new FileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'Give the files the shards wrote (paths relative to the working directory).');
}

function invalid(message: string): ToolError {
  return new ToolError('MERGE_INPUT_INVALID', message, HINT);
}
