/** readBoundedText: a file's text under a size cap, read in place, on real temporary files. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBoundedText } from '../../../src/arazzo/read-bounded.js';

const dir = mkdtempSync(join(tmpdir(), 'tool-read-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(text: string | Buffer, expectedBytes: number, maxBytes: number): Promise<string> {
  const file = join(dir, `f${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, text);
  const handle = await open(file, 'r');
  try {
    return await readBoundedText(handle, expectedBytes, maxBytes, () => new Error('too large'));
  } finally {
    await handle.close();
  }
}

describe('readBoundedText', () => {
  it('reads a file whole, multi-byte UTF-8 included', async () => {
    expect(await read('a: é€😀\n', 12, 1024)).toBe('a: é€😀\n');
    expect(await read('', 0, 1024)).toBe('');
  });

  it('grows its buffer when the file is longer than expected (a file that grew since its stat)', async () => {
    const text = 'x'.repeat(200_000) + '€';
    expect(await read(text, 10, 1_000_000)).toBe(text);
  });

  it('accepts a file of exactly the cap and refuses one byte more, without reading past it', async () => {
    expect(await read('y'.repeat(70_000), 70_000, 70_000)).toHaveLength(70_000);
    await expect(read('y'.repeat(70_001), 70_001, 70_000)).rejects.toThrow('too large');
    // A file that says it is small (an expectation under the cap) is still cut at the cap.
    await expect(read('z'.repeat(300_000), 10, 100_000)).rejects.toThrow('too large');
  });
});
