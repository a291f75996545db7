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

afterAll(() => {
  // This test process goes on with V8's defaults.
  setFlagsFromString('--semi-space-growth-factor=2');
  setFlagsFromString('--heap-growing-percent=0');
});

describe('V8 flags and cached code', () => {
  it('rejects code cached before the memory flags were set, and accepts it under withDefaultFlags', () => {
    const cachedData = new Script(SOURCE, { filename: 'flags.js' }).createCachedData();
    setMemoryFlags();
    expect(new Script(SOURCE, { filename: 'flags.js', cachedData }).cachedDataRejected).toBe(true);
    const script = withDefaultFlags(() => new Script(SOURCE, { filename: 'flags.js', cachedData }));
    expect(script.cachedDataRejected).toBe(false);
    expect((script.runInThisContext() as () => string)()).toBe('2,4,6');
  });

  it('accepts code cached under withDefaultFlags with checksums, only with checksums', () => {
    setMemoryFlags();
    const cachedData = withDefaultFlags(() => new Script(SOURCE, { filename: 'verify.js' }).createCachedData(), true);
    expect(withDefaultFlags(() => new Script(SOURCE, { filename: 'verify.js', cachedData }), true).cachedDataRejected).toBe(false);
    expect(withDefaultFlags(() => new Script(SOURCE, { filename: 'verify.js', cachedData })).cachedDataRejected).toBe(true);
  });
});
