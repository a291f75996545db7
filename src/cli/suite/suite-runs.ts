/**
 * The runs of `arazzo test` in order: every entry, and with --data the selected workflow once per
 * row in place of its entry; with --repeat or --duration, pass after pass of them. Each run is
 * yielded unstarted with the key that names it (document, workflow, row, pass), so that a suite
 * that stops (--bail, Ctrl-C) can count the runs left without running them, --shard can keep its
 * slice and --resume leave out the runs already done, and rows are read only as they are asked for.
 */
import { ToolError } from '../../errors/tool-error.js';
import type { DataRows } from './data-row.js';
import type { SuiteEntry } from './plan-suite.js';
import { rowEntries } from './row-entries.js';
import { runSuiteEntry, type EntryIO, type SharedRunDeps, type SuiteResult } from './run-entry.js';

/** What names a run: across shards and across a run and its --resume. */
export interface RunKey {
  file: string;
  workflowId: string | undefined;
  row?: number;
  iteration?: number;
}

/** A run of the suite, started by calling `start`. */
export interface PendingRun extends RunKey {
  /** Its position in the pass (0-based, rows counted one each): --shard keeps those of its slice. */
  position: number;
  /** Skipped or failed before it could start (no request can be sent): a pass of nothing else ends the passes. */
  inert: boolean;
  start(): Promise<SuiteResult>;
}

/** The entry --data runs once per row, and its rows: opened before the suite starts (a file that cannot be read is a usage error), and again for each pass after the first. */
export interface DataRun {
  entry: SuiteEntry;
  rows: DataRows;
  open(): Promise<DataRows>;
}

/** How many passes, and which runs of each to yield. */
export interface Passes {
  /** undefined: until `more()` says no. */
  count: number | undefined;
  /** Asked before each pass after the first. */
  more(): boolean;
  /** Whether the run at `position` belongs to this process's shard. */
  inShard(position: number): boolean;
  /** Whether a run with this key already finished (--resume). */
  done(key: RunKey): boolean;
}

/** The suite's runs, each unstarted. Throws only what is not a ToolError (a bug). */
export async function* suiteRuns(entries: readonly SuiteEntry[], data: DataRun | undefined, io: EntryIO, shared: SharedRunDeps, passes: Passes): AsyncGenerator<PendingRun> {
  const repeated = passes.count === undefined || passes.count > 1;
  for (let iteration = 1; passes.count === undefined || iteration <= passes.count; iteration++) {
    if (iteration > 1 && !passes.more()) return;
    let live = false;
    for await (const run of onePass(entries, data, iteration === 1, io, shared)) {
      if (!passes.inShard(run.position)) continue;
      const keyed = repeated ? { ...run, iteration } : run;
      // A run --resume finds done counts as live: the passes after it still have runs to make.
      live ||= !run.inert;
      if (passes.done(keyed)) continue;
      yield repeated ? { ...keyed, start: () => run.start().then((result) => ({ ...result, iteration })) } : keyed;
    }
    // A pass of skips and failures to start would repeat as fast as it can: another changes nothing.
    if (!live) return;
  }
}

async function* onePass(entries: readonly SuiteEntry[], data: DataRun | undefined, first: boolean, io: EntryIO, shared: SharedRunDeps): AsyncGenerator<Omit<PendingRun, 'iteration'>> {
  let position = 0;
  for (const entry of entries) {
    const key = { file: entry.file, workflowId: entry.workflowId };
    if (entry !== data?.entry) {
      yield { ...key, position: position++, inert: entry.skip !== undefined || entry.loadError !== undefined, start: () => runSuiteEntry(entry, io, shared) };
      continue;
    }
    let runOf: Awaited<ReturnType<typeof rowEntries>>;
    try {
      runOf = await rowEntries(entry);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      // The flags or the schema fail every row alike: one failed run says so.
      yield { ...key, position: position++, inert: true, start: () => runSuiteEntry({ ...entry, loadError: error }, io, shared) };
      continue;
    }
    const rows = first ? data.rows : await data.open();
    try {
      for await (const row of rows.rows) {
        // Checked when it starts: rows --bail or Ctrl-C leave are read (to count them), not checked.
        const start = async () => {
          const run = runOf(row);
          return 'result' in run ? run.result : runSuiteEntry(run.entry, io, shared);
        };
        yield { ...key, row: row.row, position: position++, inert: row.values === undefined, start };
      }
    } finally {
      await rows.close();
    }
  }
}
