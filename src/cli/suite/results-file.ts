/**
 * `--results results.jsonl`: one JSON line per finished run, written as it finishes, so that
 * memory does not grow with the runs and a crash keeps every line written before it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CommandUsageError } from '../../errors/tool-error.js';
import type { SuiteResult } from './run-entry.js';

/** An open results file. */
export interface ResultsFile {
  /** Appends the run's line; resolves once the operating system has it. */
  write(result: SuiteResult): Promise<void>;
  close(): Promise<void>;
}

/** Creates (or empties) `path`, relative to `cwd`. Throws CommandUsageError when it cannot be written. */
export async function openResultsFile(path: string, cwd: string): Promise<ResultsFile> {
  let handle: FileHandle;
  try {
    handle = await open(resolve(cwd, path), 'w');
  } catch (error) {
    throw new CommandUsageError(`--results ${path}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was run`, 'Give a path in a folder that exists and that you may write to.');
  }
  return {
    async write(result) {
      await handle.write(`${JSON.stringify(resultLine(result))}\n`);
    },
    close: () => handle.close(),
  };
}

/** The line's fields in a stable order; `ended` stays internal. */
function resultLine(result: SuiteResult): Record<string, unknown> {
  const line: Record<string, unknown> = { file: result.file, workflowId: result.workflowId ?? null };
  if (result.row !== undefined) line.row = result.row;
  line.status = result.status;
  line.durationMs = result.durationMs;
  if (result.failure) line.failure = result.failure;
  if (result.reason !== undefined) line.reason = result.reason;
  if (result.outputs) line.outputs = result.outputs;
  if (result.steps) line.steps = result.steps;
  return line;
}
