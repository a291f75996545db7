/**
 * The runs of `arazzo test` in order: every entry, and with --data the selected workflow once per
 * row in place of its entry. Each run is yielded unstarted, so a suite that stops (--bail, Ctrl-C)
 * can count the runs left without running them, and rows are read only as they are asked for.
 */
import { ToolError } from '../../errors/tool-error.js';
import type { DataRows } from './data-row.js';
import type { SuiteEntry } from './plan-suite.js';
import { rowEntries } from './row-entries.js';
import { runSuiteEntry, type EntryIO, type SuiteResult } from './run-entry.js';

/** A run of the suite, started when called. */
export type PendingRun = () => Promise<SuiteResult>;

/** The entry --data runs once per row, and the rows. */
export interface DataRun {
  entry: SuiteEntry;
  rows: DataRows;
}

/** The suite's runs, each unstarted. Throws only what is not a ToolError (a bug). */
export async function* suiteRuns(entries: readonly SuiteEntry[], data: DataRun | undefined, io: EntryIO): AsyncGenerator<PendingRun> {
  for (const entry of entries) {
    if (entry !== data?.entry) {
      yield () => runSuiteEntry(entry, io);
      continue;
    }
    let runOf: Awaited<ReturnType<typeof rowEntries>>;
    try {
      runOf = await rowEntries(entry);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      // The flags or the schema fail every row alike: one failed run says so.
      yield () => runSuiteEntry({ ...entry, loadError: error }, io);
      continue;
    }
    for await (const row of data.rows.rows) {
      yield async () => {
        const run = runOf(row);
        return 'result' in run ? run.result : runSuiteEntry(run.entry, io);
      };
    }
  }
}
