/** The v2 criterion kinds of evaluate-criteria.ts: regex, jsonpath and xpath, prepared and evaluated without I/O. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Criterion as CriterionObject } from '../../../src/arazzo/model.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { loadCriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { MAX_XML_CHARS } from '../../../src/expressions/xpath-criterion.js';
import { createRegexWorker } from '../../../src/execute/regex-worker.js';
import { evaluateCriteria, prepareCriterion, unsupportedCriterion, type CriteriaOptions } from '../../../src/plan/evaluate-criteria.js';
import { V1_PROFILE, V2_PROFILE } from '../../../src/arazzo/runner-profile.js';

let options: CriteriaOptions;
const warnings: string[] = [];
const regex = createRegexWorker();

beforeAll(async () => {
  const warn = (message: string) => warnings.push(message);
  options = { profile: V2_PROFILE, libraries: await loadCriterionLibraries(['jsonpath', 'xpath'], { regex, warn }), regex, warn };
});

afterAll(() => regex.stop());

/** A criterion as the model holds it; `context` null for none. */
function criterion(type: string, condition: string, context: string | null = '$response.body', version?: string): CriterionObject {
  const c = { pointer: '/c', extra: {}, type, condition } as CriterionObject;
  if (context !== null) c.context = context;
  if (version !== undefined) c.version = version;
  return c;
}

function holds(c: CriterionObject, body: unknown): boolean {
  const ctx: ExpressionContext = { inputs: {}, steps: {}, response: { statusCode: 200, headers: {}, body } };
  return evaluateCriteria([prepareCriterion(c, options)], ctx) === undefined;
}

describe('regex criteria', () => {
  it('test a string as is, a number or boolean as text, and an object as its JSON text', () => {
    expect(holds(criterion('regex', '^ok$'), 'ok')).toBe(true);
    expect(holds(criterion('regex', '^4\\d$'), 42)).toBe(true);
    expect(holds(criterion('regex', '^true$'), true)).toBe(true);
    expect(holds(criterion('regex', '^\\{"a":1\\}$'), { a: 1 })).toBe(true);
    expect(holds(criterion('regex', '^\\[1,2\\]$'), [1, 2])).toBe(true);
    expect(holds(criterion('regex', '^ok$'), 'not ok')).toBe(false);
  });

  it('use the u flag', () => {
    expect(holds(criterion('regex', '^.$'), '😀')).toBe(true);
    expect(holds(criterion('regex', '^\\p{Lu}+$'), 'ÉTÉ')).toBe(true);
  });

  it('do not hold on an absent or null context', () => {
    expect(holds(criterion('regex', '.*'), null)).toBe(false);
    expect(holds(criterion('regex', '.*'), undefined)).toBe(false);
    expect(holds(criterion('regex', '.*', null), 'x')).toBe(false);
  });

  it('refuse an invalid pattern when prepared', () => {
    expect(() => prepareCriterion(criterion('regex', '(unclosed'), options)).toThrow(/Invalid regular expression/);
    expect(() => prepareCriterion(criterion('regex', '\\q'), options)).toThrow(); // an identity escape is an error with u
  });
});

describe('jsonpath criteria', () => {
  it('take the context value itself as the root node', () => {
    expect(holds(criterion('jsonpath', '$[0]'), ['a'])).toBe(true);
    expect(holds(criterion('jsonpath', '$[1]'), ['a'])).toBe(false);
    expect(holds(criterion('jsonpath', '$.items[?@.n > 1]'), { items: [{ n: 1 }, { n: 2 }] })).toBe(true);
    expect(holds(criterion('jsonpath', '$.items[?@.n > 5]'), { items: [{ n: 1 }, { n: 2 }] })).toBe(false);
  });

  it('do not hold on an absent context', () => {
    expect(holds(criterion('jsonpath', '$'), undefined)).toBe(false);
  });

  it('refuse a syntax error when prepared', () => {
    expect(() => prepareCriterion(criterion('jsonpath', '$.a['), options)).toThrow();
    expect(() => prepareCriterion(criterion('jsonpath', 'a.b'), options)).toThrow();
  });

  it('read the Goessner draft in a mode that never evaluates script', () => {
    const goessner = (query: string) => criterion('jsonpath', query, '$response.body', 'draft-goessner-dispatch-jsonpath-00');
    expect(holds(goessner('$..book[?(@.price < 10)].title'), { store: { book: [{ price: 8, title: 'x' }] } })).toBe(true);
    expect(() => prepareCriterion(goessner('$..book[(@.length-1)]'), options)).toThrow(/never evaluates script/);
    expect(() => prepareCriterion(criterion('jsonpath', '$', '$response.body', 'draft-other'), options)).toThrow(/unknown jsonpath version/);
  });
});

describe('xpath criteria', () => {
  it('hold when the effective boolean value is true', () => {
    const xml = '<order id="7"><item/><item/></order>';
    expect(holds(criterion('xpath', "/order/@id = '7'"), xml)).toBe(true);
    expect(holds(criterion('xpath', 'count(//item) = 2'), xml)).toBe(true);
    expect(holds(criterion('xpath', '//item'), xml)).toBe(true);
    expect(holds(criterion('xpath', '//missing'), xml)).toBe(false);
    for (const version of ['xpath-30', 'xpath-20', 'xpath-10']) expect(holds(criterion('xpath', '//item', '$response.body', version), xml)).toBe(true);
  });

  it('refuse a static syntax error or an unknown version when prepared', () => {
    expect(() => prepareCriterion(criterion('xpath', '/order['), options)).toThrow(/XPST0003/);
    expect(() => prepareCriterion(criterion('xpath', '/a', '$response.body', 'xpath-40'), options)).toThrow(/unknown xpath version/);
  });

  it('do not hold, and say why, on XML that does not parse, a JSON value, an evaluation error or too much text', () => {
    warnings.length = 0;
    expect(holds(criterion('xpath', '/a'), '<a><b></a>')).toBe(false);
    expect(holds(criterion('xpath', '/a'), { a: 1 })).toBe(false);
    expect(holds(criterion('xpath', '/a + "x"'), '<a>1</a>')).toBe(false);
    expect(holds(criterion('xpath', '/a'), `<a>${'x'.repeat(MAX_XML_CHARS)}</a>`)).toBe(false);
    expect(warnings).toEqual([
      expect.stringMatching(/not well-formed XML/),
      expect.stringMatching(/not XML text/),
      expect.stringMatching(/XPTY0004/),
      expect.stringMatching(/larger than 5 MiB/),
    ]);
  });

  it('refuses a billion-laughs document without expanding it', () => {
    warnings.length = 0;
    const levels = ['<!ENTITY l0 "lol">'];
    for (let i = 1; i < 10; i++) levels.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
    const bomb = `<?xml version="1.0"?><!DOCTYPE a [${levels.join('')}]><a>&l9;</a>`;
    const started = Date.now();
    expect(holds(criterion('xpath', "string-length(/a) > 0"), bomb)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(warnings[0]).toMatch(/not well-formed XML/);
  });

  it('reads bytes as UTF-8 text', () => {
    expect(holds(criterion('xpath', "/a = 'é'"), Buffer.from('<a>é</a>'))).toBe(true);
  });
});

describe('simple criteria in v2', () => {
  it('ignore a context, where v1 refuses it', () => {
    const c = criterion('simple', '$statusCode == 200');
    expect(unsupportedCriterion(c, V1_PROFILE)).toBe('context');
    expect(unsupportedCriterion(c, V2_PROFILE)).toBeUndefined();
    expect(holds(c, 'anything')).toBe(true);
  });

  it('v1 does not run the typed kinds at all', () => {
    expect(unsupportedCriterion(criterion('regex', 'x'), V1_PROFILE)).toBe('type');
    expect(prepareCriterion(criterion('simple', '$statusCode == 200', null)).kind).toBe('simple');
  });
});
