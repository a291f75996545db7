/**
 * CSV data rows (RFC 4180, read by csv-parse a record at a time): the header row names the inputs,
 * each record after it is a row of strings. A byte order mark is ignored, blank lines are not rows,
 * quoted fields may hold commas, doubled quotes and newlines. An unquoted empty cell gives no value
 * (the input falls back to --input or the schema's default); a quoted one (`""`) gives "".
 */
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { parse, type CastingFunction, type CsvError } from 'csv-parse';
import { CommandUsageError } from '../../errors/tool-error.js';
import type { DataRow, DataRows } from './data-row.js';

type Cell = string | undefined;

/** A record as read, after the malformed records that came just before it (and were skipped). */
interface Read {
  cells: Cell[];
  skipped: string[];
}

const emptyIsNone: CastingFunction = (value, context) => (value === '' && !context.quoting ? undefined : value);

/** csv-parse's reason without the text of the field it quotes (a row may hold a secret). */
function csvMessage(error: Error | undefined): string {
  return (error?.message ?? 'malformed record').replace(/, value is .*$/s, '');
}

/** The rows of a CSV file whose header is read now. Throws CommandUsageError for a file without a header, or a header with an unnamed or repeated column. */
export async function csvRows(handle: FileHandle, path: string): Promise<DataRows> {
  // A malformed record (a stray quote) is skipped, not thrown: a stream error would drop the records read before it.
  const pending: string[] = [];
  const parser = pipeline(
    handle.createReadStream(),
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      cast: emptyIsNone,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        pending.push(csvMessage(error));
        return undefined;
      },
      // csv-parse types a record as string[] whatever on_record makes of it.
      on_record: (cells) => ({ cells, skipped: pending.splice(0) }) satisfies Read as unknown as string[],
    }),
    () => undefined,
  );
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<Read>;
  const close = async () => {
    parser.destroy();
  };
  const refuse = async (why: string, hint: string) => {
    await close();
    return new CommandUsageError(`--data ${path}: ${why}; nothing was run`, hint);
  };
  let first: IteratorResult<Read>;
  try {
    first = await records.next();
  } catch (error) {
    throw await refuse(`the header row is not valid CSV (${csvMessage(error as Error)})`, 'Write the header as RFC 4180 CSV: name,other,"a name, with a comma".');
  }
  if (first.done === true) throw await refuse(pending.length > 0 ? `the header row is not valid CSV (${pending[0]})` : 'the file is empty (no header row)', 'Start the file with a header row naming the inputs: petId,name.');
  if (first.value.skipped.length > 0) throw await refuse(`the header row is not valid CSV (${first.value.skipped[0]})`, 'Write the header as RFC 4180 CSV: name,other,"a name, with a comma".');
  const header = first.value.cells;
  const unnamed = header.findIndex((name) => name === undefined || name.trim() === '');
  if (unnamed >= 0) throw await refuse(`column ${unnamed + 1} of the header has no name`, 'Name every column of the header row after the input it gives.');
  const repeated = header.find((name, i) => header.indexOf(name) !== i);
  if (repeated !== undefined) throw await refuse(`the header names column "${repeated}" twice`, 'Give each input one column.');
  return { rows: rowsOf(records, header as string[], path, pending), close };
}

async function* rowsOf(records: AsyncIterator<Read>, header: readonly string[], path: string, pending: string[]): AsyncGenerator<DataRow> {
  let row = 0;
  const malformed = (why: string, after = ''): DataRow => {
    row++;
    return { row, strings: true, problem: `${path} row ${row} is not valid CSV (${why})${after}` };
  };
  for (;;) {
    let next: IteratorResult<Read>;
    try {
      next = await records.next();
    } catch (error) {
      // What csv-parse cannot skip (a quote still open at the end of the file) ends the rows.
      yield malformed(csvMessage(error as Error), '; the rows after it were not read');
      return;
    }
    for (const why of next.done === true ? pending.splice(0) : next.value.skipped) yield malformed(why);
    if (next.done === true) return;
    row++;
    const cells = next.value.cells;
    if (cells.length !== header.length) {
      yield { row, strings: true, problem: `${path} row ${row} has ${cells.length} field${cells.length === 1 ? '' : 's'}, the header names ${header.length}` };
      continue;
    }
    // Without a prototype while filled: a column named __proto__ is an input like any other.
    const values: Record<string, unknown> = Object.create(null);
    for (const [i, name] of header.entries()) if (cells[i] !== undefined) values[name] = cells[i];
    yield { row, strings: true, values: { ...values } };
  }
}
