import { describe, expect, it } from '@jest/globals';
import { PointerSyntaxError } from '../../../src/expressions/errors.js';
import { setAtPointer, PointerSetError } from '../../../src/expressions/pointer-set.js';

describe('setAtPointer (a replacement sets the value at its target)', () => {
  it('replaces an existing member and creates a missing one whose parent exists', () => {
    expect(setAtPointer({ a: { b: 1 } }, '/a/b', 2)).toEqual({ a: { b: 2 } });
    expect(setAtPointer({ a: {} }, '/a/c', [1])).toEqual({ a: { c: [1] } });
  });

  it('replaces the item at an existing array index (never inserts), appends at the length or with -', () => {
    expect(setAtPointer({ petOrder: { tags: ['a', 'b'] } }, '/petOrder/tags/0', 'x')).toEqual({ petOrder: { tags: ['x', 'b'] } });
    expect(setAtPointer({ l: ['a', 'c'] }, '/l/1', 'b')).toEqual({ l: ['a', 'b'] });
    expect(setAtPointer({ l: ['a'] }, '/l/1', 'b')).toEqual({ l: ['a', 'b'] });
    expect(setAtPointer({ l: ['a'] }, '/l/-', 'b')).toEqual({ l: ['a', 'b'] });
    expect(setAtPointer([{ x: 1 }], '/0/y', 2)).toEqual([{ x: 1, y: 2 }]);
  });

  it('unescapes ~1 and ~0 in member names, and replaces the whole document for ""', () => {
    expect(setAtPointer({ 'a/b': {} }, '/a~1b/c~0d', 1)).toEqual({ 'a/b': { 'c~d': 1 } });
    expect(setAtPointer({ a: 1 }, '', 'whole')).toBe('whole');
  });

  it('leaves the document and the added value unchanged, copying only what is on the way', () => {
    const shared = { deep: { n: 1 } };
    const document = { a: { b: 1 }, other: shared, l: [1] };
    const result = setAtPointer(document, '/a/c', 2) as Record<string, unknown>;
    expect(document).toEqual({ a: { b: 1 }, other: shared, l: [1] });
    expect(result.other).toBe(shared);
    const value = { v: 1 };
    const twice = setAtPointer(setAtPointer({}, '/x', value), '/x/w', 2);
    expect(value).toEqual({ v: 1 });
    expect(twice).toEqual({ x: { v: 1, w: 2 } });
  });

  it('keeps a member named __proto__ as data', () => {
    const result = setAtPointer({}, '/__proto__', { polluted: true }) as Record<string, unknown>;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [{ a: 1 }, '/b/c', 'its parent /b does not exist'],
    [{ a: { b: 1 } }, '/a/x/y', 'its parent /a/x does not exist'],
    [{ a: 1 }, '/a/b', 'its parent /a is a number, not an object or array'],
    [{ a: null }, '/a/b', 'its parent /a is null, not an object or array'],
    [{ l: [1] }, '/l/2', 'its parent /l is an array of 1 items, and "2" is not an index from 0 to 1 (or - to append)'],
    [{ l: [1] }, '/l/01', '"01" is not an index'],
    [{ l: [1] }, '/l/5/x', 'its parent /l/5 does not exist'],
    ['text', '/a', 'the payload is a string, not an object or array'],
  ])('refuses %j at %s: %s', (document, pointer, message) => {
    expect(() => setAtPointer(document, pointer, 1)).toThrow(PointerSetError);
    expect(() => setAtPointer(document, pointer, 1)).toThrow(message);
  });

  it('refuses a malformed pointer', () => {
    expect(() => setAtPointer({}, 'a', 1)).toThrow(PointerSyntaxError);
    expect(() => setAtPointer({}, '/a~2', 1)).toThrow(PointerSyntaxError);
  });
});
