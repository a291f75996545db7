import { describe, expect, it } from '@jest/globals';
import { overDeepPointer } from '../../../src/arazzo/check-depth.js';

/** A list nested `levels` deep: [[[...]]]. */
function nested(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe('overDeepPointer', () => {
  it('finds nothing in a document within the limit, and the first collection past it', () => {
    expect(overDeepPointer({ a: nested(3) }, 4)).toBeUndefined();
    expect(overDeepPointer({ a: nested(4) }, 4)).toBe('/a/0/0/0');
  });

  it('finds a shared subtree that is too deep only where it is reached deep enough', () => {
    const shared = nested(3);
    // Reached at level 2 (fine) first, then at level 4 (past the limit of 5 at its bottom).
    expect(overDeepPointer({ a: shared, b: { c: { d: shared } } }, 5)).toBe('/b/c/d/0/0');
    expect(overDeepPointer({ a: shared, b: { c: shared } }, 5)).toBeUndefined();
  });

  it('walks a subtree shared by many aliases once per depth, not once per alias', () => {
    // Each item counts how often its members are listed: a walk per alias lists each 100 times.
    let listed = 0;
    const big = Array.from({ length: 1_000 }, (_, i) => new Proxy({ i }, { ownKeys: (target) => (listed++, Reflect.ownKeys(target)) }));
    const doc = { big, refs: Array.from({ length: 99 }, () => big) };
    expect(overDeepPointer(doc)).toBeUndefined();
    // Reached at two depths (doc.big, doc.refs[n]): at most two walks of the 1 000 items.
    expect(listed).toBeGreaterThanOrEqual(1_000);
    expect(listed).toBeLessThanOrEqual(2 * 1_000);
  });

  it('still reports a cycle as too deep', () => {
    const loop: unknown[] = [1];
    loop.push(loop);
    expect(overDeepPointer({ loop }, 10)).toBe(`/loop${'/1'.repeat(9)}`);
  });
});
