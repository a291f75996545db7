import { describe, expect, it } from '@jest/globals';
import { serializeCookie, serializeHeader, serializePath, serializeQuery } from '../../../src/openapi/serialize-parameter.js';

// The OpenAPI style examples: color = "blue" / ["blue","black","brown"] / {R:100,G:200,B:150}.
const string = 'blue';
const array = ['blue', 'black', 'brown'];
const object = { R: 100, G: 200, B: 150 };

describe('path parameter styles (OpenAPI style examples)', () => {
  const table: Array<[string, boolean, unknown, string]> = [
    ['simple', false, string, 'blue'],
    ['simple', false, array, 'blue,black,brown'],
    ['simple', false, object, 'R,100,G,200,B,150'],
    ['simple', true, string, 'blue'],
    ['simple', true, array, 'blue,black,brown'],
    ['simple', true, object, 'R=100,G=200,B=150'],
    ['label', false, null, '.'],
    ['label', false, string, '.blue'],
    ['label', false, array, '.blue,black,brown'],
    ['label', false, object, '.R,100,G,200,B,150'],
    ['label', true, null, '.'],
    ['label', true, string, '.blue'],
    ['label', true, array, '.blue.black.brown'],
    ['label', true, object, '.R=100.G=200.B=150'],
    ['matrix', false, null, ';color'],
    ['matrix', false, string, ';color=blue'],
    ['matrix', false, array, ';color=blue,black,brown'],
    ['matrix', false, object, ';color=R,100,G,200,B,150'],
    ['matrix', true, null, ';color'],
    ['matrix', true, string, ';color=blue'],
    ['matrix', true, array, ';color=blue;color=black;color=brown'],
    ['matrix', true, object, ';R=100;G=200;B=150'],
  ];
  it.each(table)('serialises style %s explode %s of %j', (style, explode, value, expected) => {
    expect(serializePath('color', value, style, explode)).toBe(expected);
  });

  it('defaults to simple without explode', () => {
    expect(serializePath('color', object)).toBe('R,100,G,200,B,150');
  });

  it('percent-encodes everything but unreserved characters in path values', () => {
    expect(serializePath('p', "a/b?c#d e%f!'()*~._-")).toBe("a%2Fb%3Fc%23d%20e%25f%21%27%28%29%2A~._-");
    expect(serializePath('p', ['a,b', 'c'])).toBe('a%2Cb,c');
    expect(serializePath('p', 'é')).toBe('%C3%A9');
  });

  it('stringifies booleans and numbers and turns null into an empty value', () => {
    expect(serializePath('p', true)).toBe('true');
    expect(serializePath('p', 42.5)).toBe('42.5');
    expect(serializePath('p', null)).toBe('');
  });
});

describe('query parameter styles (OpenAPI style examples)', () => {
  const table: Array<[string, boolean, unknown, string[]]> = [
    ['form', false, null, ['color=']],
    ['form', false, string, ['color=blue']],
    ['form', false, array, ['color=blue,black,brown']],
    ['form', false, object, ['color=R,100,G,200,B,150']],
    ['form', true, null, ['color=']],
    ['form', true, string, ['color=blue']],
    ['form', true, array, ['color=blue', 'color=black', 'color=brown']],
    ['form', true, object, ['R=100', 'G=200', 'B=150']],
    ['spaceDelimited', false, array, ['color=blue%20black%20brown']],
    ['spaceDelimited', false, object, ['color=R%20100%20G%20200%20B%20150']],
    ['spaceDelimited', true, array, ['color=blue', 'color=black', 'color=brown']],
    ['pipeDelimited', false, array, ['color=blue|black|brown']],
    ['pipeDelimited', false, object, ['color=R|100|G|200|B|150']],
    ['pipeDelimited', true, array, ['color=blue', 'color=black', 'color=brown']],
    ['deepObject', true, object, ['color[R]=100', 'color[G]=200', 'color[B]=150']],
  ];
  it.each(table)('serialises style %s explode %s of %j', (style, explode, value, expected) => {
    expect(serializeQuery('color', value, style, explode)).toEqual(expected);
  });

  it('defaults to form with explode', () => {
    expect(serializeQuery('color', array)).toEqual(['color=blue', 'color=black', 'color=brown']);
  });

  it('nests deepObject brackets for nested objects and repeats keys for arrays', () => {
    expect(serializeQuery('filter', { owner: { name: 'a b' }, tags: ['x', 'y'] }, 'deepObject', true)).toEqual([
      'filter[owner][name]=a%20b',
      'filter[tags]=x',
      'filter[tags]=y',
    ]);
  });

  it('falls back to form for styles that do not fit the value', () => {
    expect(serializeQuery('color', 'blue', 'deepObject', true)).toEqual(['color=blue']);
    expect(serializeQuery('color', 'blue', 'pipeDelimited', false)).toEqual(['color=blue']);
  });

  it('encodes query names and values with encodeURIComponent semantics, keeping delimiters literal', () => {
    expect(serializeQuery('q&x', 'a&b=c d+e/f?g#h')).toEqual(['q%26x=a%26b%3Dc%20d%2Be%2Ff%3Fg%23h']);
    expect(serializeQuery('ids', ['1,2', '3'], 'form', false)).toEqual(['ids=1%2C2,3']);
    expect(serializeQuery('p', ['a|b', 'c'], 'pipeDelimited', false)).toEqual(['p=a%7Cb|c']);
  });

  it('keeps reserved characters and percent-encoded triples when allowReserved is set', () => {
    expect(serializeQuery('redirect', 'https://x.test/a?b=c&d=%20e f%zz', 'form', true, true)).toEqual([
      'redirect=https://x.test/a?b=c&d=%20e%20f%25zz',
    ]);
  });

  it('does not throw on a lone surrogate', () => {
    expect(serializeQuery('p', 'a\uD800b')).toEqual(['p=a%EF%BF%BDb']);
  });
});

describe('header and cookie parameters', () => {
  it('serialises headers in simple style without percent-encoding', () => {
    expect(serializeHeader(string)).toBe('blue');
    expect(serializeHeader(array)).toBe('blue,black,brown');
    expect(serializeHeader(object)).toBe('R,100,G,200,B,150');
    expect(serializeHeader(object, true)).toBe('R=100,G=200,B=150');
    expect(serializeHeader('a b/c')).toBe('a b/c');
    expect(serializeHeader(null)).toBe('');
  });

  it('serialises cookies in form style, exploded by default', () => {
    expect(serializeCookie('color', string)).toEqual(['color=blue']);
    expect(serializeCookie('color', array)).toEqual(['color=blue', 'color=black', 'color=brown']);
    expect(serializeCookie('color', array, false)).toEqual(['color=blue,black,brown']);
    expect(serializeCookie('color', object)).toEqual(['R=100', 'G=200', 'B=150']);
    expect(serializeCookie('color', object, false)).toEqual(['color=R,100,G,200,B,150']);
    expect(serializeCookie('color', null)).toEqual(['color=']);
  });

  it('encodes only what a cookie value may not contain', () => {
    expect(serializeCookie('session', 'ab+/cd==')).toEqual(['session=ab+/cd==']);
    expect(serializeCookie('note', 'a b;c,d"é')).toEqual(['note=a%20b%3Bc%2Cd%22%C3%A9']);
  });
});
