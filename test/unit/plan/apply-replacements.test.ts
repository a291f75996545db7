import { describe, expect, it } from '@jest/globals';
import { loadCriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { applyReplacements, ReplacementError } from '../../../src/plan/apply-replacements.js';

const xpath = (await loadCriterionLibraries(['xpath'])).xpath!;

describe('applyReplacements', () => {
  it('applies JSON replacements in order, a later one seeing what an earlier one added', () => {
    const payload = { a: 1 };
    const result = applyReplacements(payload, [
      { target: '/b', value: { c: [] } },
      { target: '/b/c/-', value: 'x' },
    ], 'application/json');
    expect(result).toEqual({ a: 1, b: { c: ['x'] } });
    expect(payload).toEqual({ a: 1 });
  });

  it('reads JSON text, and leaves a JSON string payload a string', () => {
    expect(applyReplacements(' [1, 2]', [{ target: '/0', value: 0 }], 'application/vnd.api+json')).toEqual([0, 2]);
    expect(() => applyReplacements('plain', [{ target: '/a', value: 1 }], 'application/json')).toThrow('replacement target "/a": the payload is a string, not an object or array');
    expect(() => applyReplacements('{"a":', [{ target: '/a', value: 1 }], 'application/json')).toThrow('the payload is JSON text that does not parse');
  });

  it('refuses a text payload of a content type that is neither JSON nor XML', () => {
    expect(() => applyReplacements('a=1', [{ target: '/a', value: 2 }], 'text/plain')).toThrow(ReplacementError);
  });

  it('sets the text of XML nodes: elements, attributes and text nodes, values as text', () => {
    const xml = '<?xml version="1.0"?>\n<r a="1"><x>old<y/></x><n>1</n></r>';
    const result = applyReplacements(xml, [
      { target: '/r/x', value: '<&>' },
      { target: '/r/@a', value: 2 },
      { target: '/r/n/text()', value: { k: true } },
    ], 'application/soap+xml; charset=utf-8', xpath);
    expect(result).toBe('<?xml version="1.0"?>\n<r a="2"><x>&lt;&amp;&gt;</x><n>{"k":true}</n></r>');
  });

  it('refuses XML that does not parse, and an XPath error, naming the target', () => {
    expect(() => applyReplacements('<r>', [{ target: '/r', value: 1 }], 'application/xml', xpath)).toThrow('the payload is not well-formed XML');
    expect(() => applyReplacements('<r/>', [{ target: '/r[', value: 1 }], 'application/xml', xpath)).toThrow('replacement target "/r[": XPST0003');
    expect(() => applyReplacements('<r/>', [{ target: 'string(/r)', value: 1 }], 'application/xml', xpath)).toThrow('replacement target "string(/r)"');
  });
});
