import { describe, expect, it } from '@jest/globals';
import { PointerSyntaxError } from '../../../src/expressions/errors.js';
import { escapePointerToken, formatPointer, parsePointer, resolvePointer, unescapePointerToken } from '../../../src/expressions/json-pointer.js';

describe('parsePointer', () => {
  it('reads the empty pointer as no tokens and "/" as one empty token', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
  });

  it('unescapes ~1 to "/" and ~0 to "~", in that order', () => {
    expect(parsePointer('/a~1b/m~0n/~01')).toEqual(['a/b', 'm~n', '~1']);
  });

  it('throws PointerSyntaxError for a pointer not starting with "/"', () => {
    expect(() => parsePointer('a/b')).toThrow(PointerSyntaxError);
  });

  it('throws PointerSyntaxError for a "~" that is not ~0 or ~1', () => {
    expect(() => parsePointer('/a~2')).toThrow('"~" not followed by 0 or 1');
    expect(() => parsePointer('/a~')).toThrow(PointerSyntaxError);
  });
});

describe('formatPointer', () => {
  it('escapes "~" before "/" so the result parses back', () => {
    expect(formatPointer(['a/b', 'm~n', '~1'])).toBe('/a~1b/m~0n/~01');
    expect(formatPointer([])).toBe('');
  });
});

describe('escapePointerToken and unescapePointerToken', () => {
  it('escape ~ before / and unescape ~1 before ~0, so ~01 stays a literal ~1', () => {
    expect(escapePointerToken('/pets/{id}~x')).toBe('~1pets~1{id}~0x');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(unescapePointerToken('~01')).toBe('~1');
    expect(unescapePointerToken('~1pets~1{id}~0x')).toBe('/pets/{id}~x');
  });
});

describe('resolvePointer', () => {
  const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'm~n': 8, ' ': 7, nested: { list: [{ id: 'x' }] }, nothing: null };

  it.each<[string, unknown]>([
    ['', doc],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/m~0n', 8],
    ['/ ', 7],
    ['/nested/list/0/id', 'x'],
    ['/nothing', null],
  ])('finds the RFC 6901 example %j', (pointer, expected) => {
    expect(resolvePointer(doc, parsePointer(pointer))).toEqual(expected);
  });

  it.each(['/foo/-', '/foo/2', '/foo/01', '/foo/+1', '/foo/1.0', '/missing', '/nothing/x', '/foo/0/length', '/constructor'])(
    'returns undefined for %j',
    (pointer) => {
      expect(resolvePointer(doc, parsePointer(pointer))).toBeUndefined();
    },
  );
});
