import { describe, expect, it } from '@jest/globals';
import { parseBody } from '../../../src/output/parse-body.js';

describe('parseBody', () => {
  it('parses application/json and +json types', () => {
    expect(parseBody('application/json', Buffer.from('{"id":1}'))).toEqual({ id: 1 });
    expect(parseBody('application/problem+json; charset=utf-8', Buffer.from('{"title":"x"}'))).toEqual({ title: 'x' });
    expect(parseBody('Application/JSON', Buffer.from('[1,2]'))).toEqual([1, 2]);
  });

  it('returns the text of invalid JSON', () => {
    expect(parseBody('application/json', Buffer.from('{not json'))).toBe('{not json');
  });

  it('strips a UTF-8 byte order mark before parsing JSON', () => {
    expect(parseBody('application/json', Buffer.from('\uFEFF{"a":true}'))).toEqual({ a: true });
  });

  it('decodes text, XML and form bodies as strings', () => {
    expect(parseBody('text/plain', Buffer.from('héllo'))).toBe('héllo');
    expect(parseBody('text/html; charset=utf-8', Buffer.from('<p>'))).toBe('<p>');
    expect(parseBody('application/xml', Buffer.from('<a/>'))).toBe('<a/>');
    expect(parseBody('application/atom+xml', Buffer.from('<feed/>'))).toBe('<feed/>');
    expect(parseBody('application/x-www-form-urlencoded', Buffer.from('a=1&b=2'))).toBe('a=1&b=2');
  });

  it('honours a non-UTF-8 charset', () => {
    expect(parseBody('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe('café');
  });

  it('returns undefined for an empty body', () => {
    expect(parseBody('application/json', Buffer.alloc(0))).toBeUndefined();
    expect(parseBody(undefined, Buffer.alloc(0))).toBeUndefined();
  });

  it('returns other types and untyped bodies as the same bytes', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    expect(parseBody('image/png', png)).toBe(png);
    expect(parseBody(undefined, Buffer.from('abc'))).toEqual(Buffer.from('abc'));
  });
});
