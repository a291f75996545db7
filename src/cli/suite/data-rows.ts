/**
 * `arazzo test --data rows.csv|rows.jsonl|rows.json`: the rows of inputs the selected workflow runs
 * once each. CSV and JSON Lines are read a row at a time (a file of 100 000 rows never sits in
 * memory); a JSON array is read whole, up to MAX_JSON_BYTES. A row that cannot be read (a JSON
 * Lines line that is not a JSON object, a CSV record with the wrong number of fields) is a row
 * with a `problem`: it fails on its own and the others still run.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { MAX_DOCUMENT_DEPTH, overDeepPointer } from '../../arazzo/check-depth.js';
import { CommandUsageError } from '../../errors/tool-error.js';
import { csvRows } from './csv-rows.js';
import type { DataRow, DataRows } from './data-row.js';

/** A `.json` data file larger than this is refused: it is read whole (use .jsonl or .csv for more). */
export const MAX_JSON_BYTES = 50 * 1024 * 1024;

const HINT = 'Give --data a .csv file (a header row naming the inputs), a .jsonl file (one JSON object per line) or a .json file (an array of objects); see docs/test.md#data-rows.';

type Reader = (handle: FileHandle, path: string) => Promise<DataRows>;

const READERS: Record<string, Reader> = { '.csv': csvRows, '.jsonl': jsonLinesRows, '.json': jsonArrayRows };

/**
 * Opens `path` (relative to `cwd`) by its extension, reading what must be right before anything
 * runs (a CSV header, a whole JSON array). Throws CommandUsageError (exit 2) for an unknown
 * extension, a missing, unreadable or non-regular file, a bad CSV header, a `.json` file that is
 * too large, not JSON or not an array.
 */
export async function openDataRows(path: string, cwd: string): Promise<DataRows> {
  const extension = extname(path).toLowerCase();
  const reader = READERS[extension];
  if (reader === undefined) throw new CommandUsageError(`--data ${path}: ${extension === '' ? 'the file has no extension' : `"${extension}" is not a data format`}; nothing was run`, HINT);
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    handle = await open(resolve(cwd, path), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new CommandUsageError(`--data ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was run`, 'Check the path given to --data (relative to the working directory).');
  }
  try {
    if (!(await handle.stat()).isFile()) throw new CommandUsageError(`--data ${path}: not a regular file; nothing was run`, HINT);
    return await reader(handle, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** One JSON object per line; blank lines are skipped (they are not rows). */
async function jsonLinesRows(handle: FileHandle, path: string): Promise<DataRows> {
  const stream = handle.createReadStream({ encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  // Listening now: the stream flows from here, and the lines read before the suite asks for its
  // first row (while it opens --results or the report files) would otherwise be lost, and the
  // iteration would wait for ever on a stream that has ended.
  const texts = lines[Symbol.asyncIterator]();
  async function* rows(): AsyncGenerator<DataRow> {
    let line = 0;
    let row = 0;
    for await (const text of texts) {
      line++;
      const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (trimmed === '') continue;
      row++;
      let value: unknown;
      try {
        value = JSON.parse(trimmed) as unknown;
      } catch (error) {
        yield { row, strings: false, problem: `${path} line ${line} is not JSON (${jsonMessage(error)})` };
        continue;
      }
      yield objectRow(row, value, `${path} line ${line}`);
    }
  }
  return { rows: rows(), close: async () => { lines.close(); stream.destroy(); } };
}

/** A JSON array of objects, read whole: JSON has no row boundaries to stream by without a parser of its own. */
async function jsonArrayRows(handle: FileHandle, path: string): Promise<DataRows> {
  const { size } = await handle.stat();
  if (size > MAX_JSON_BYTES) throw new CommandUsageError(`--data ${path}: the file is larger than ${MAX_JSON_BYTES / 1024 / 1024} MiB; nothing was run`, 'A .json data file is read whole: write the rows as JSON Lines (.jsonl, one object per line) or CSV, which are read a row at a time.');
  const text = (await handle.readFile({ encoding: 'utf8' })).replace(/^\uFEFF/, '');
  await handle.close();
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new CommandUsageError(`--data ${path}${positionOf(error, text)}: not valid JSON (${jsonMessage(error)}); nothing was run`, HINT);
  }
  if (!Array.isArray(value)) throw new CommandUsageError(`--data ${path}: the JSON is not an array of rows; nothing was run`, HINT);
  const items: unknown[] = value;
  async function* rows(): AsyncGenerator<DataRow> {
    for (const [i, item] of items.entries()) yield objectRow(i + 1, item, `${path} item ${i}`);
  }
  return { rows: rows(), close: async () => undefined };
}

/** The row of a parsed JSON value: an object's values, or why it is no row. */
function objectRow(row: number, value: unknown, where: string): DataRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { row, strings: false, problem: `${where} is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a JSON object of inputs` };
  }
  // A value nested without end would overflow the stack of what walks it later (the schema check, templates, the record).
  if (overDeepPointer(value) !== undefined) return { row, strings: false, problem: `${where} nests deeper than ${MAX_DOCUMENT_DEPTH} levels` };
  return { row, strings: false, values: { ...(value as Record<string, unknown>) } };
}

/** JSON.parse's reason without the text it quotes (a row may hold secrets). */
function jsonMessage(error: unknown): string {
  return (error as Error).message.replace(/ in JSON at .*$|,\s*(?:\.\.\.)?".*$/s, '');
}

/** `:line:col` of JSON.parse's "at position N", when it says one. */
function positionOf(error: unknown, text: string): string {
  const match = / at position (\d+)/.exec((error as Error).message);
  if (match === null) return '';
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  return `:${line}:${before.length - before.lastIndexOf('\n')}`;
}
