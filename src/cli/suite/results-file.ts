/**
 * `--results results.jsonl`: one JSON line per finished run, written as it finishes, so that
 * memory does not grow with the runs and a crash keeps every line written before it. `--resume`
 * reads such a file back: the runs it records are not run again, and new lines go after them.
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { CommandUsageError } from '../../errors/tool-error.js';
import type { SuiteResult } from './run-entry.js';
import type { RunKey } from './suite-runs.js';

/** An open results file. */
export interface ResultsFile {
  /**
   * Appends the run's line (lines keep the order of the calls); resolves once the operating system
   * has it. Rejects with a CommandUsageError when it could not be written (a full disk); the lines
   * after a failed one are not written, and their calls resolve.
   */
  write(result: SuiteResult): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates (or empties) `path`, relative to `cwd`; with `append`, keeps what it holds and writes
 * after it: a last line a killed run left half-written is cut off, and one it wrote whole but for
 * its newline gets the newline (readFinishedRuns counted it as finished, so it must stay). Throws
 * CommandUsageError when it cannot be written.
 */
export async function openResultsFile(path: string, cwd: string, append = false): Promise<ResultsFile> {
  let handle: FileHandle;
  let position = 0;
  try {
    handle = await open(resolve(cwd, path), append ? 'a+' : 'w');
    if (append) position = await wholeLinesEnd(handle);
  } catch (error) {
    throw new CommandUsageError(`--results ${path}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was run`, 'Give a path in a folder that exists and that you may write to.');
  }
  if (append) await keepWholeLines(handle, position);
  // One write at a time: runs finish together under --concurrency, and each line must stay whole.
  let last: Promise<void> = Promise.resolve();
  let failed = false;
  return {
    write(result) {
      const line = `${JSON.stringify(resultRecord(result, true))}\n`;
      const written = last.then(async () => {
        if (failed) return;
        try {
          await handle.write(line);
        } catch (error) {
          failed = true;
          throw new CommandUsageError(`--results ${path}: cannot write the file any more (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it holds the runs that finished before, and no other run was started`, 'Free some space (or give a path on another disk), then go on with --resume.');
        }
      });
      last = written.catch(() => undefined);
      return written;
    },
    async close() {
      await last.catch(() => undefined);
      await handle.close();
    },
  };
}

/** Cuts the text after `position` (the end of the last whole line) unless it is a whole JSON line without its newline, which gets one. */
async function keepWholeLines(handle: FileHandle, position: number): Promise<void> {
  const { size } = await handle.stat();
  if (size === position) return;
  const tail = Buffer.alloc(size - position);
  await handle.read(tail, 0, tail.length, position);
  if (parseLine(tail.toString('utf8')) !== undefined) await handle.write('\n');
  else await handle.truncate(position);
}

/** The length of `handle`'s file up to the end of its last whole line. */
async function wholeLinesEnd(handle: FileHandle): Promise<number> {
  const { size } = await handle.stat();
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}

/** A run as the results file (`full`: with its outputs and steps) and the JSON summary give it, fields in a stable order; `ended` and the samples stay internal. */
export function resultRecord(result: SuiteResult, full: boolean): Record<string, unknown> {
  const line: Record<string, unknown> = { file: result.file, workflowId: result.workflowId ?? null };
  if (result.row !== undefined) line.row = result.row;
  if (result.iteration !== undefined) line.iteration = result.iteration;
  line.status = result.status;
  line.durationMs = result.durationMs;
  if (result.failure) line.failure = result.failure;
  if (result.reason !== undefined) line.reason = result.reason;
  if (full && result.outputs) line.outputs = result.outputs;
  if (full && result.steps) line.steps = result.steps;
  return line;
}

/** The key of a run, as one string: equal for the same document, workflow, row and pass. */
export function runKey(key: RunKey): string {
  return JSON.stringify([key.file, key.workflowId ?? null, key.row ?? null, key.iteration ?? null]);
}

/**
 * `--resume <file>`: the keys of the runs the results file records as finished (passed, failed or
 * skipped). A line that is not a whole JSON object (the last one, cut by a kill) is passed over.
 * Throws CommandUsageError when the file cannot be read.
 */
export async function readFinishedRuns(path: string, cwd: string): Promise<Set<string>> {
  const finished = new Set<string>();
  const stream = createReadStream(resolve(cwd, path), { encoding: 'utf8' });
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      const line = parseLine(text);
      if (line === undefined) continue;
      const status = line.status;
      if (status !== 'passed' && status !== 'failed' && status !== 'skipped') continue;
      if (typeof line.file !== 'string') continue;
      finished.add(runKey({ file: line.file, workflowId: typeof line.workflowId === 'string' ? line.workflowId : undefined, ...(typeof line.row === 'number' ? { row: line.row } : {}), ...(typeof line.iteration === 'number' ? { iteration: line.iteration } : {}) }));
    }
  } catch (error) {
    throw new CommandUsageError(`--resume ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was run`, 'Give the --results file of the run to go on with (relative to the working directory).');
  }
  return finished;
}

function parseLine(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
