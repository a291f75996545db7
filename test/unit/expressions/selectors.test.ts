/** Arazzo 1.1 Selector Objects in templates: recognised only in 1.1, evaluated per type, the embedding rule. */
import { describe, expect, it } from '@jest/globals';
import { compileTemplate } from '../../../src/expressions/compile-template.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { loadCriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { UnresolvedExpressionError } from '../../../src/expressions/errors.js';
import { renderTemplate } from '../../../src/expressions/render-template.js';
import { expressionTypeProblem, isSelectorShaped, libraryVersion } from '../../../src/expressions/selector-object.js';

const libraries = await loadCriterionLibraries(['jsonpath', 'xpath']);
const V11 = { dialect: '1.1' as const, selectors: libraries };
const XML = '<r><item sku="A"><p>1</p></item><item sku="B"><p>2</p></item></r>';
const ctx: ExpressionContext = {
  inputs: { doc: { items: [{ id: 1, tag: 'x' }, { id: 2, tag: 'y' }], empty: [] }, xml: XML, text: 'plain', json: '{"a":{"b":3}}', which: 'y' },
  steps: {},
};
const render = (value: unknown, options = V11) => renderTemplate(compileTemplate(value, [], options), ctx);
const sel = (selector: string, type: unknown, context = '$inputs.doc') => ({ context, selector, type });

describe('Selector Objects (Arazzo 1.1)', () => {
  it('jsonpath: one node gives its value, several an array, with the type kept', () => {
    expect(render(sel('$.items[0].id', 'jsonpath'))).toBe(1);
    expect(render(sel('$.items[*].id', 'jsonpath'))).toEqual([1, 2]);
    expect(render(sel('$.items[0]', { type: 'jsonpath', version: 'rfc9535' }))).toEqual({ id: 1, tag: 'x' });
  });

  it('jsonpath in the Goessner draft version, through json-p3 non-standard mode', () => {
    expect(render(sel("$.items[?(@.id == 2)].tag", { type: 'jsonpath', version: 'draft-goessner-dispatch-jsonpath-00' }))).toBe('y');
  });

  it('jsonpointer: the value at the pointer, also in a context that is JSON text', () => {
    expect(render(sel('/items/1/tag', 'jsonpointer'))).toBe('y');
    expect(render(sel('/a/b', { type: 'jsonpointer', version: 'rfc6901' }, '$inputs.json'))).toBe(3);
    expect(render(sel('', 'jsonpointer', '$inputs.doc#/items/0'))).toEqual({ id: 1, tag: 'x' });
  });

  it('xpath: a node gives its string value, several an array of strings, an atomic result itself', () => {
    expect(render(sel('/r/item[2]/p', 'xpath', '$inputs.xml'))).toBe('2');
    expect(render(sel('/r/item/@sku', 'xpath', '$inputs.xml'))).toEqual(['A', 'B']);
    expect(render(sel('count(/r/item)', { type: 'xpath', version: 'xpath-30' }, '$inputs.xml'))).toBe(2);
    expect(render(sel('/r/item[1]', 'xpath', '$inputs.xml'))).toBe('1');
  });

  it('fills in {$…} in the selector first', () => {
    expect(render(sel('$.items[?@.tag == "{$inputs.which}"].id', 'jsonpath'))).toBe(2);
    expect(render(sel('/items/{$inputs.doc#/items/0/id}/tag', 'jsonpointer'))).toBe('y');
  });

  it.each([
    ['nothing selected', sel('$.none', 'jsonpath'), 'jsonpath selector "$.none" on $inputs.doc (it selects no node)'],
    ['an empty pointer target', sel('/items/5', 'jsonpointer'), 'the pointer names no value in its context'],
    ['a context that resolves to nothing', sel('$.a', 'jsonpath', '$inputs.missing'), 'its context $inputs.missing resolved to nothing'],
    ['a context that is not structured', sel('$.a', 'jsonpath', '$inputs.text'), 'its context is not structured data'],
    ['xpath on data that is not XML text', sel('/r', 'xpath'), 'its context is not XML text'],
    ['xpath on text that is not XML', sel('/r', 'xpath', '$inputs.text'), 'its context is not well-formed XML'],
    ['xpath selecting nothing', sel('/r/none', 'xpath', '$inputs.xml'), 'it selects nothing'],
    ['a filled-in expression that resolves to nothing', sel('/{$inputs.nope}', 'jsonpointer'), '{$inputs.nope} resolved to nothing'],
  ])('resolves to nothing on %s, saying why', (_, value, why) => {
    expect(() => render({ at: value })).toThrow(UnresolvedExpressionError);
    try {
      render({ at: value });
    } catch (error) {
      expect((error as UnresolvedExpressionError).expression).toContain(why);
      expect((error as UnresolvedExpressionError).pointer).toBe('/at');
    }
  });

  it('keeps the mapping as written in a dry run when it cannot be evaluated yet', () => {
    const value = sel('$.none', 'jsonpath');
    expect(renderTemplate(compileTemplate({ a: value }, [], V11), ctx, { onUnresolved: 'keep' })).toEqual({ a: value });
  });

  it('is found anywhere in a value: in arrays and nested objects', () => {
    expect(render({ a: [sel('/items/0/id', 'jsonpointer'), { b: sel('$.items[1].tag', 'jsonpath') }] })).toEqual({ a: [1, { b: 'y' }] });
  });

  it('is data in a 1.0 document, and with any key besides context, selector and type', () => {
    expect(render({ a: sel('/items/0/id', 'jsonpointer', 'ctx') }, {} as typeof V11)).toEqual({ a: { context: 'ctx', selector: '/items/0/id', type: 'jsonpointer' } });
    const extra = { ...sel('/items/0/id', 'jsonpointer', 'ctx'), 'x-note': 1 };
    expect(render({ a: extra })).toEqual({ a: extra });
    expect(isSelectorShaped({ context: 1, selector: 2, type: 3 })).toBe(true);
    expect(isSelectorShaped([1, 2, 3])).toBe(false);
  });
});

describe('the embedding rule in 1.1', () => {
  it('keeps the type of a value that is exactly one expression, and strings embedded values (structured ones as JSON)', () => {
    expect(render('$inputs.doc#/items/0/id')).toBe(1);
    expect(render('$inputs.doc#/items/0')).toEqual({ id: 1, tag: 'x' });
    expect(render('id={$inputs.doc#/items/0/id}')).toBe('id=1');
    expect(render('item={$inputs.doc#/items/0}')).toBe('item={"id":1,"tag":"x"}');
    expect(render('xml={$inputs.xml}')).toBe(`xml=${XML}`);
    expect(render('{$inputs.doc#/empty}')).toBe('[]');
  });
});

describe('expression types and versions', () => {
  it('names the allowed values of an unknown type or version', () => {
    expect(expressionTypeProblem('yaml', undefined)).toBe('type "yaml" is not one of jsonpath, xpath, jsonpointer');
    expect(expressionTypeProblem('xpath', 'xpath-40')).toBe('xpath version "xpath-40" is not one of xpath-31, xpath-30, xpath-20, xpath-10');
    expect(expressionTypeProblem('jsonpath', 'draft-goessner-dispatch-jsonpath-00')).toBeUndefined();
  });

  it('asks the libraries for no version when the default is named', () => {
    expect(libraryVersion('jsonpath', 'rfc9535')).toBeUndefined();
    expect(libraryVersion('xpath', 'xpath-31')).toBeUndefined();
    expect(libraryVersion('xpath', 'xpath-10')).toBe('xpath-10');
  });
});
