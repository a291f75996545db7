/** Assertions every end-to-end run shares: stdout is exactly one record, stderr has no stack trace. */
import { expect } from '@jest/globals';
import type { ToolResult } from './run-tool.js';

export interface StepRecord {
  stepId: string;
  status: number;
  dryRun: boolean;
  outputs: Record<string, unknown>;
  failedVia?: string;
}

export interface RunRecord {
  workflowId: string;
  status: 'succeeded' | 'failed';
  failure?: { workflowId?: string; stepId?: string; code: string; message: string };
  outputs: Record<string, unknown>;
  steps: StepRecord[];
}

/** A line of a JavaScript stack trace ("    at fn (file.js:12:5)"). */
export const STACK_FRAME = /\n\s+at .*:\d+:\d+/;
/** What runCli prints for an error it did not expect: never right for a user's mistake or a server's answer. */
export const INTERNAL_ERROR = /internal error|This is a bug in tool/;
/** A warning printed by Node itself ("(node:1234) Warning: …", a MaxListenersExceededWarning…): never for users of tool. */
export const NODE_WARNING = /\(node:\d+\) \w*Warning/;

/** Parses stdout as exactly one JSON document with the record's fields and nothing else. Throws (fails the test) otherwise. */
export function parseRecord(stdout: string): RunRecord {
  let record: unknown;
  try {
    record = JSON.parse(stdout);
  } catch (error) {
    throw new Error(`stdout is not exactly one JSON document (${(error as Error).message}):\n${stdout}`);
  }
  const failed = (record as { status?: unknown }).status === 'failed';
  // status always; failure exactly when the run failed (docs/run.md, The run record).
  expect(Object.keys(record as object)).toEqual(['workflowId', 'status', ...(failed ? ['failure'] : []), 'outputs', 'steps']);
  expect(['succeeded', 'failed']).toContain((record as { status: unknown }).status);
  return record as RunRecord;
}

/** Checks the invariants of a run that started (record on stdout, no stack trace) and returns the record. */
export function recordOf(result: ToolResult): RunRecord {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(INTERNAL_ERROR);
  expect(result.stderr).not.toMatch(NODE_WARNING);
  return parseRecord(result.stdout);
}

/** Checks a run that never started: nothing on stdout, no stack trace, the given exit code. */
export function expectNoRun(result: ToolResult, code: number): void {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' });
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(INTERNAL_ERROR);
  expect(result.stderr).not.toMatch(NODE_WARNING);
}

/** `stepId:status[:failedVia]` for each step record: compact enough to compare whole runs. */
export function trail(record: RunRecord): string[] {
  return record.steps.map((s) => [s.stepId, s.status, s.failedVia].filter((x) => x !== undefined).join(':'));
}
