/** The body of a direct call: `-d <text>`, `-d @file`, or `-d -` (stdin). */

import { openForReading } from '../arazzo/open-for-reading.js';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { FileError } from '../errors/tool-error.js';

/**
 * The bytes `--data` names, sent as they are (a file's newlines are kept, unlike curl's `-d @file`):
 * `-` or `@-` reads stdin to its end, `@path` reads a file relative to `cwd`, anything else is the
 * text itself. Throws FileError (exit 2) when the file cannot be read.
 */
export async function readRequestBody(data: string, io: { cwd: string; stdin: Readable }): Promise<Buffer> {
  if (data === '-' || data === '@-') return readAll(io.stdin);
  if (!data.startsWith('@')) return Buffer.from(data, 'utf8');
  const path = resolve(io.cwd, data.slice(1));
  try {
    const { handle, kind } = await openForReading(path);
    try {
      if (kind === 'directory') throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
      // A FIFO would wait for a writer and a device may never end: -d - reads a stream from stdin.
      if (kind === 'special') throw new Error('not a regular file (a FIFO, a device or a socket); pipe it to -d - instead');
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new FileError(`cannot read the request body from ${path}: ${reason}`, 'Give -d @<file> an existing file, -d - for stdin, or the body itself: -d \'{"a":1}\'.');
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
