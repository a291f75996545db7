/** detachStrings (src/arazzo/detach-strings.ts) copies a parsed document's strings in place and changes nothing else. */
import { describe, expect, it } from '@jest/globals';
import { detachStrings } from '../../../src/arazzo/detach-strings.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';

describe('detachStrings', () => {
  it('leaves the value equal, with the same objects and arrays, and returns it', () => {
    const long = 'a string that is long enough to be a view';
    const nested = { list: [long, 'short', 1, true, null, { deeper: [long, '\ud800 lone surrogate kept as is'] }] };
    const value = { text: long, nested, n: 3 };
    const copy = structuredClone(value);
    expect(detachStrings(value)).toBe(value);
    expect(value).toEqual(copy);
    expect(value.nested).toBe(nested);
  });

  it('does not touch a __proto__ key or the prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "a string that is long enough"}, "a": {"b": "another long string here"}}') as Record<string, unknown>;
    detachStrings(value);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is applied to documents: a parsed document reads as before', () => {
    const text = 'arazzo: 1.0.1\ninfo: { title: A title long enough to be cut, version: 1.0.0 }\nsourceDescriptions: []\nworkflows: []\n';
    const doc = parseDocumentText(text, 'doc.arazzo.yaml', '/tmp/doc.arazzo.yaml');
    expect(doc.raw).toEqual({ arazzo: '1.0.1', info: { title: 'A title long enough to be cut', version: '1.0.0' }, sourceDescriptions: [], workflows: [] });
  });
});
