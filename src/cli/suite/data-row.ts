/** What a --data file gives, whatever its format (data-rows.ts reads JSON and JSON Lines, csv-rows.ts CSV). */

/** One row of a data file: its values, or why it cannot run. */
export interface DataRow {
  /** 1-based among the rows: a CSV header is not a row, nor is a blank line. */
  row: number;
  /** The inputs it gives (a CSV cell left empty, unquoted, gives none). */
  values?: Record<string, unknown>;
  /** Its values are CSV strings: coerced to the types the inputs schema declares, as `--input k=v` strings are. */
  strings: boolean;
  /** Why the row cannot run (its line is not a JSON object, a CSV record has too many fields). */
  problem?: string;
}

/** An open data file: its rows, read as they are asked for. */
export interface DataRows {
  /** Iterated once. */
  rows: AsyncIterable<DataRow>;
  /** Releases the file; safe to call more than once. */
  close(): Promise<void>;
}
