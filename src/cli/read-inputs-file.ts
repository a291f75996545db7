/** Reading `--inputs-file`: a JSON or YAML object of workflow inputs. */

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isMap, LineCounter, parseDocument } from 'yaml';
import { findDuplicateKey } from '../arazzo/find-duplicate-key.js';
import { FileError } from '../errors/tool-error.js';

/** An inputs file larger than this is refused before it is parsed. */
export const MAX_INPUTS_FILE_BYTES = 1024 * 1024;
/** YAML alias expansions allowed while building the value (no "billion laughs"). */
const MAX_ALIAS_COUNT = 100;

/**
 * The inputs in `path` (relative to `cwd`): a mapping of input names to values of any JSON type.
 * Throws FileError (exit 2) for a missing, unreadable, non-regular or oversized file, and for
 * invalid JSON/YAML or a value that is not a mapping, with `file:line:col`. The offending line is
 * never quoted: the file may hold secrets.
 */
export async function readInputsFile(path: string, cwd: string): Promise<Record<string, unknown>> {
  const text = await readSmallFile(path, cwd);
  const lines = new LineCounter();
  // Duplicate keys are found by findDuplicateKey, in linear time (the library's check is quadratic).
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const at = (offset: number): string => {
    const pos = lines.linePos(offset);
    return `${path}:${pos.line}:${pos.col}`;
  };
  const first = doc.errors[0];
  const duplicate = findDuplicateKey(doc);
  if (duplicate !== undefined && (first === undefined || duplicate.offset < first.pos[0])) {
    throw new FileError(`${at(duplicate.offset)}: an input is given twice`, 'Write --inputs-file as one JSON or YAML object: {"petId": 42, "name": "Rex"}.');
  }
  if (first !== undefined) {
    // yaml's messages (prettyErrors off) describe the problem without quoting the text.
    throw new FileError(`${at(first.pos[0])}: invalid JSON or YAML: ${first.message}`, 'Write --inputs-file as one JSON or YAML object: {"petId": 42, "name": "Rex"}.');
  }
  if (!isMap(doc.contents)) {
    const what = doc.contents === null ? 'empty' : 'not an object';
    throw new FileError(`${at(doc.contents?.range?.[0] ?? 0)}: the inputs file is ${what}`, 'Write --inputs-file as one JSON or YAML object: {"petId": 42, "name": "Rex"}.');
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    throw new FileError(`${path}: YAML aliases expand to too many nodes`, 'Write the repeated values out.');
  }
  const inputs: Record<string, unknown> = Object.create(null);
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) inputs[name] = item;
  return { ...inputs };
}

async function readSmallFile(path: string, cwd: string): Promise<string> {
  const absolute = resolve(cwd, path);
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new FileError(`cannot read the inputs file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, 'Check the path given to --inputs-file.');
  }
  try {
    const info = await handle.stat();
    // A FIFO or a device would block or never end; only a regular file is read.
    if (!info.isFile()) throw new FileError(`the inputs file ${path} is not a regular file`, 'Give --inputs-file a JSON or YAML file.');
    if (info.size > MAX_INPUTS_FILE_BYTES) throw new FileError(`the inputs file ${path} is larger than ${MAX_INPUTS_FILE_BYTES / 1024} KiB`, 'Inputs files are for a few values; pass large data another way.');
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}
