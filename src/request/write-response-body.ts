/** Putting a direct call's response body on stdout: pretty JSON for a person, exact bytes for a pipe. */

import type { Writable } from 'node:stream';
import type { HttpResponse } from '../http/types.js';
import { printableText } from '../output/printable.js';
import { isStackOverflow } from '../expressions/stringify-json.js';

export interface BodyOutput {
  stdout: Writable;
  stdoutIsTTY: boolean;
  /** Credential values of the request, shown `***` in a body printed on a terminal. */
  secrets?: readonly string[];
}

/**
 * Writes the body. A terminal gets JSON indented and text with a final newline, both without
 * escape sequences or control characters and with secrets masked (printable.ts); a binary body is
 * not dumped on it (the returned note says so). Anything else (a pipe, a file) gets the bytes as
 * received. Resolves when the write is handed to the stream; returns a note for stderr, if any.
 */
export async function writeResponseBody(response: HttpResponse, out: BodyOutput): Promise<string | undefined> {
  const bytes = response.bytes ?? bytesOf(response.body);
  if (bytes.length === 0) return undefined;
  if (!out.stdoutIsTTY) return write(out.stdout, bytes);
  const body = response.body;
  if (Buffer.isBuffer(body)) {
    const type = first(response.headers['content-type']) ?? 'no content type';
    return `the body is binary (${bytes.length} bytes, ${type}) and is not shown on a terminal; redirect stdout to a file to save it`;
  }
  const text = printableText(typeof body === 'string' ? body : indented(body, bytes), { values: out.secrets ?? [] });
  return write(out.stdout, text.endsWith('\n') ? text : `${text}\n`);
}

/** JSON indented for a person; a body nested too deep to indent (thousands of levels) as it came. */
function indented(body: unknown, bytes: Buffer): string {
  try {
    return JSON.stringify(body, null, 2);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    return bytes.toString('utf8');
  }
}

function write(stream: Writable, data: Buffer | string): Promise<undefined> {
  // The callback also fires on an error (a closed pipe): bin.ts deals with EPIPE, not this command.
  return new Promise((resolve) => stream.write(data, () => resolve(undefined)));
}

/** The bytes of a body that came without them (a response built by a test or another layer). */
function bytesOf(body: unknown): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
