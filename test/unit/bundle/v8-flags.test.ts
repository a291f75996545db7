/**
 * V8 accepts cached code only under the flags it was made with. These tests check that tool's
 * memory flags change V8's flag hash (why src/v8-flags.ts exists) and that withDefaultFlags gives
 * the start-up hash back: if a Node update moved a default, cached code would be rejected on
 * every run, silently, and Node's built-ins would compile from source.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { setMemoryFlags, withDefaultFlags } from '../../../src/v8-flags.js';

const SOURCE = '(function () { return [1, 2, 3].map((n) => n * 2).join(","); })';
let compiles = 0;
/** A new file name each time: V8 keeps compiled scripts per source and name, and would not look at cachedData. */
const compile = (cachedData?: Buffer) => new Script(SOURCE, { filename: `flags-${compiles++}.js`, ...(cachedData ? { cachedData } : {}) });

afterAll(() => {
  // This test process goes on with V8's defaults.
  setFlagsFromString('--semi-space-growth-factor=2');
  setFlagsFromString('--heap-growing-percent=0');
});

describe('V8 flags and cached code', () => {
  it('rejects code cached before the memory flags were set, and accepts it under withDefaultFlags', () => {
    const cachedData = compile().createCachedData();
    setMemoryFlags();
    expect(compile(cachedData).cachedDataRejected).toBe(true);
    const script = withDefaultFlags(() => compile(cachedData));
    expect(script.cachedDataRejected).toBe(false);
    expect((script.runInThisContext() as () => string)()).toBe('2,4,6');
  });

  it('accepts code cached under withDefaultFlags with checksums, only with checksums', () => {
    setMemoryFlags();
    const cachedData = withDefaultFlags(() => compile().createCachedData(), true);
    expect(withDefaultFlags(() => compile(cachedData), true).cachedDataRejected).toBe(false);
    expect(withDefaultFlags(() => compile(cachedData)).cachedDataRejected).toBe(true);
  });
});
