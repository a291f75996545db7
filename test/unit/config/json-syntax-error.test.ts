import { describe, expect, it } from '@jest/globals';
import { findJsonSyntaxError, lineColAt } from '../../../src/config/json-syntax-error.js';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a": 1}', undefined],
    ['[1, -2.5e3, true, false, null, "x\\u00e9"]', undefined],
    ['{"a": 1,}', { offset: 8, message: 'unexpected "}"; expected a "quoted" property name' }],
    ['{"a" 1}', { offset: 5, message: `unexpected "1"; expected ':' after the property name` }],
    ['{"a": tru}', { offset: 6, message: 'unexpected "t"; expected a value' }],
    ['[1 2]', { offset: 3, message: `unexpected "2"; expected ',' or ']'` }],
    ['{"a": 1', { offset: 7, message: `unexpected the end of the file; expected ',' or '}'` }],
    ['{"a": "x\ny"}', { offset: 8, message: 'a control character (e.g. a line break) inside a string' }],
    ['{} x', { offset: 3, message: 'unexpected "x" after the end of the JSON value' }],
    ['', { offset: 0, message: 'unexpected the end of the file; expected a value' }],
  ])('locates the first error of %j', (text, expected) => {
    expect(findJsonSyntaxError(text)).toEqual(expected);
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const text of ['0', '"s"', '{"a":[{}]}', '01', '1.', '{"a":1}}', '"\\x"']) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonSyntaxError(text) === undefined).toBe(valid);
    }
  });
});

describe('lineColAt', () => {
  it('counts lines and columns from 1', () => {
    expect(lineColAt('ab\ncd\nef', 0)).toEqual({ line: 1, col: 1 });
    expect(lineColAt('ab\ncd\nef', 4)).toEqual({ line: 2, col: 2 });
    expect(lineColAt('ab\ncd\nef', 8)).toEqual({ line: 3, col: 3 });
  });
});
