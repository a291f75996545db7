/** Reading a file's text under a size cap, for Arazzo documents and the descriptions they name. */
import type { FileHandle } from 'node:fs/promises';

/**
 * The text of the open file `handle` (UTF-8), read into one buffer sized for `expectedBytes` (and
 * grown if the file turns out longer), never holding more than `maxBytes + 1` bytes: a file (or an
 * endless pipe) over `maxBytes` stops the read at once with `tooLarge()`'s error. The bytes are
 * read in place and decoded once: copying each chunk (Buffer.from of a subarray copies byte by
 * byte on Node 20) and concatenating them cost ~5 ms per 340 KB document.
 */
export async function readBoundedText(handle: FileHandle, expectedBytes: number, maxBytes: number, tooLarge: () => Error): Promise<string> {
  let buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(expectedBytes + 1, 64 * 1024)));
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2));
      buffer.copy(grown, 0, 0, total);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw tooLarge();
  }
  return buffer.toString('utf8', 0, total);
}
