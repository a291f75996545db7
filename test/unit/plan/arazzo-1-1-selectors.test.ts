/** Arazzo 1.1 in the plan layer: typed replacement targets, jsonpointer criteria, `$self` and `$sourceDescriptions` resolution. */
import { describe, expect, it } from '@jest/globals';
import type { ArazzoDocument, Criterion as CriterionObject } from '../../../src/arazzo/model.js';
import { ARAZZO_1_1_PROFILE, V2_PROFILE } from '../../../src/arazzo/runner-profile.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { loadCriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { applyReplacements, ReplacementError } from '../../../src/plan/apply-replacements.js';
import type { BoundSource } from '../../../src/plan/bind-sources.js';
import { documentScope } from '../../../src/plan/compile-steps.js';
import { evaluateCriteria, prepareCriterion } from '../../../src/plan/evaluate-criteria.js';
import { documentUri } from '../../../src/plan/template-options.js';

const libraries = await loadCriterionLibraries(['jsonpath', 'xpath']);

describe('replacements with a targetSelectorType (Arazzo 1.1)', () => {
  it('jsonpath sets every node it selects, leaving the payload given unchanged', () => {
    const payload = { items: [{ on: false }, { on: false }], other: 1 };
    const result = applyReplacements(payload, [{ target: '$.items[*].on', type: 'jsonpath', value: true }], 'application/json', undefined, libraries.jsonpath);
    expect(result).toEqual({ items: [{ on: true }, { on: true }], other: 1 });
    expect(payload.items[0]!.on).toBe(false);
  });

  it('jsonpath reads a JSON text payload, and a target that selects nothing fails naming it', () => {
    expect(applyReplacements('{"a":1}', [{ target: '$.a', type: 'jsonpath', value: 2 }], 'application/json', undefined, libraries.jsonpath)).toEqual({ a: 2 });
    expect(() => applyReplacements({ a: 1 }, [{ target: '$.b', type: 'jsonpath', value: 2 }], 'application/json', undefined, libraries.jsonpath)).toThrow(
      new ReplacementError('replacement target "$.b" (jsonpath) selects nothing in the payload'),
    );
  });

  it('applies typed and untyped targets in order: a jsonpointer adds, then a jsonpath sees it', () => {
    const result = applyReplacements({ a: {} }, [{ target: '/a/b', type: 'jsonpointer', value: 1 }, { target: '$.a.b', type: 'jsonpath', value: 2 }, { target: '/c', value: 3 }], 'application/json', undefined, libraries.jsonpath);
    expect(result).toEqual({ a: { b: 2 }, c: 3 });
  });

  it('xpath sets XML text, and refuses structured data', () => {
    expect(applyReplacements('<r><a>1</a></r>', [{ target: '/r/a', type: 'xpath', value: 'x' }], 'application/json', libraries.xpath)).toBe('<r><a>x</a></r>');
    expect(() => applyReplacements({ a: 1 }, [{ target: '/r/a', type: 'xpath', value: 'x' }], 'application/json', libraries.xpath)).toThrow('an xpath target needs an XML payload');
  });
});

describe('the jsonpointer criterion (Arazzo 1.1)', () => {
  const criterion = (condition: string, context = '$response.body'): CriterionObject => ({ pointer: '/c', extra: {}, type: 'jsonpointer', condition, context });
  const ctx: ExpressionContext = { inputs: { i: 1 }, steps: {}, response: { statusCode: 200, headers: {}, body: { a: [{ b: null }, { c: 0 }] } } };
  const options = { profile: ARAZZO_1_1_PROFILE, libraries };

  it('holds when the pointer names a value in the context (null and 0 are values)', () => {
    for (const condition of ['/a/0/b', '/a/1/c', '', '/a/{$inputs.i}']) expect(evaluateCriteria([prepareCriterion(criterion(condition), options)], ctx)).toBeUndefined();
    for (const condition of ['/a/2', '/x', '/a/0/b/c']) expect(evaluateCriteria([prepareCriterion(criterion(condition), options)], ctx)).toBeDefined();
  });

  it('does not hold without a context value', () => {
    expect(evaluateCriteria([prepareCriterion(criterion('/a', '$inputs.none'), options)], ctx)).toBeDefined();
  });

  it('is refused in a 1.0 document and when its pointer does not compile', () => {
    expect(() => prepareCriterion(criterion('/a'), { profile: V2_PROFILE, libraries })).toThrow('criterion type "jsonpointer" is not one of simple, regex, jsonpath, xpath');
    expect(() => prepareCriterion(criterion('a'), options)).toThrow('must be empty or start with "/"');
  });

  it('accepts 1.1 default version names for jsonpath and xpath criteria', () => {
    const jsonpath: CriterionObject = { pointer: '/c', extra: {}, type: 'jsonpath', version: 'rfc9535', condition: '$.a[1]', context: '$response.body' };
    expect(evaluateCriteria([prepareCriterion(jsonpath, options)], ctx)).toBeUndefined();
    expect(() => prepareCriterion(jsonpath, { profile: V2_PROFILE, libraries })).toThrow('unknown jsonpath version "rfc9535"');
  });
});

describe('$self and $sourceDescriptions (Arazzo 1.1)', () => {
  it('$self is the document $self resolved against its location, or that location as a URI', () => {
    expect(documentUri(undefined, '/work/flows/a.arazzo.yaml')).toBe('file:///work/flows/a.arazzo.yaml');
    expect(documentUri('sub/b.yaml', '/work/flows/a.arazzo.yaml')).toBe('file:///work/flows/sub/b.yaml');
    expect(documentUri('workflows/purchase.arazzo.yaml', 'https://api.example.com/v2/api-description.yaml')).toBe('https://api.example.com/v2/workflows/purchase.arazzo.yaml');
    expect(documentUri('https://example.com/id.yaml', '/work/a.yaml')).toBe('https://example.com/id.yaml');
    expect(documentUri('rel.yaml', undefined)).toBe('rel.yaml');
  });

  it('an operationId named like a source field wins in 1.1, the field in 1.0', () => {
    const doc = { pointer: '', extra: {}, sourceDescriptions: [{ pointer: '/s/0', extra: {}, name: 'api', url: './api.yaml', type: 'openapi' }], workflows: [] } as ArazzoDocument;
    const operations = new Map([['url', {}], ['getPet', {}]]);
    const sources = [{ name: 'api', url: './api.yaml', description: { location: '/work/api.yaml', operations }, reason: 'synthetic' }] as unknown as BoundSource[];
    expect(documentScope(doc, sources, true).sourceDescriptions.api).toMatchObject({ url: 'url', getPet: 'getPet', type: 'openapi' });
    expect(documentScope(doc, sources).sourceDescriptions.api).toMatchObject({ url: '/work/api.yaml', getPet: 'getPet' });
  });
});
