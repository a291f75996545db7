import { describe, expect, it } from '@jest/globals';
import { compileTemplate } from '../../../src/expressions/compile-template.js';
import { TemplateCycleError, UnresolvedExpressionError } from '../../../src/expressions/errors.js';
import { renderTemplate } from '../../../src/expressions/render-template.js';
import type { TemplateWarning } from '../../../src/expressions/template-ast.js';
import { sampleContext } from './sample-context.js';

const render = (value: unknown, opts?: { onUnresolved?: 'throw' | 'keep' }): unknown =>
  renderTemplate(compileTemplate(value), sampleContext(), opts);

function unresolved(value: unknown): UnresolvedExpressionError {
  try {
    render(value);
  } catch (error) {
    if (error instanceof UnresolvedExpressionError) return error;
    throw error;
  }
  throw new Error('expected the render to fail');
}

describe('compileTemplate and renderTemplate', () => {
  it('keeps the type of a string that is exactly one expression', () => {
    expect(render({ code: '$statusCode', customer: '$inputs.customer', tags: '$inputs.customer#/tags' })).toEqual({
      code: 200,
      customer: { firstName: 'Ada', tags: ['a', 'b'] },
      tags: ['a', 'b'],
    });
  });

  it('renders a string that is exactly one {$expr} as a string, as interpolation', () => {
    expect(render({ customer: '{$inputs.customer}', code: '{$statusCode}' })).toEqual({
      customer: '{"firstName":"Ada","tags":["a","b"]}',
      code: '200',
    });
  });

  it('interpolates {$expr} inside a longer string, strings as-is and other values as JSON', () => {
    expect(render('Bearer {$steps.login.outputs.token}')).toBe('Bearer tok');
    expect(render('status={$statusCode} tags={$inputs.customer#/tags} who={$inputs.username}!')).toBe(
      'status=200 tags=["a","b"] who=ada!',
    );
  });

  it('passes non-string leaves and plain strings through unchanged', () => {
    const payload = { n: 1.5, b: false, z: null, list: [1, 'two', { three: true }], text: 'no expressions {here}', price: 'costs 5$' };
    expect(render(payload)).toEqual(payload);
  });

  it('renders a scalar template root, such as a parameter value', () => {
    expect(render('$inputs.username')).toBe('ada');
    expect(render(42)).toBe(42);
  });

  it('keeps $ strings that do not parse, such as JSONPath, and warns with their pointer', () => {
    const warnings: TemplateWarning[] = [];
    const payload = { filter: '$.items[0]', nested: { list: ['$[?@.a]', '$5.00'] }, 'a/b': '$foo.bar' };
    const t = compileTemplate(payload, warnings);
    expect(renderTemplate(t, sampleContext())).toEqual(payload);
    expect(warnings.map((w) => [w.pointer, w.source])).toEqual([
      ['/filter', '$.items[0]'],
      ['/nested/list/0', '$[?@.a]'],
      ['/nested/list/1', '$5.00'],
      ['/a~1b', '$foo.bar'],
    ]);
    expect(warnings[0]?.message).toContain('"$.items[0]" is not a runtime expression, so it is sent as written');
  });

  it('keeps an embedded {$...} that does not parse as text and warns', () => {
    const warnings: TemplateWarning[] = [];
    const t = compileTemplate({ s: 'a {$nope} b {$inputs.username}', u: 'open {$inputs.username' }, warnings);
    expect(renderTemplate(t, sampleContext())).toEqual({ s: 'a {$nope} b ada', u: 'open {$inputs.username' });
    expect(warnings.map((w) => [w.pointer, w.source])).toEqual([
      ['/s', '{$nope}'],
      ['/u', '{$inputs.username'],
    ]);
  });

  it('interpolates a string starting with $ that is not itself an expression but embeds one', () => {
    const warnings: TemplateWarning[] = [];
    expect(renderTemplate(compileTemplate('$5 for {$inputs.username}', warnings), sampleContext())).toBe('$5 for ada');
    expect(warnings).toEqual([]);
  });

  it('copies __proto__, constructor and prototype keys as own data properties', () => {
    const payload = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": 1}');
    const out = render(payload) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":1}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('builds new objects on every render, so renders do not share state', () => {
    const t = compileTemplate({ a: { b: [1] } });
    const first = renderTemplate(t, sampleContext()) as { a: { b: number[] } };
    first.a.b.push(2);
    expect(renderTemplate(t, sampleContext())).toEqual({ a: { b: [1] } });
  });

  it('evaluates a compiled template against each new context', () => {
    const t = compileTemplate({ code: '$statusCode' });
    expect([200, 503].map((statusCode) => renderTemplate(t, { inputs: {}, steps: {}, statusCode }))).toEqual([
      { code: 200 },
      { code: 503 },
    ]);
  });

  it('throws UnresolvedExpressionError naming the expression and where it is', () => {
    const error = unresolved({ body: { id: '$steps.missing.outputs.id' } });
    expect(error.code).toBe('UNRESOLVED_EXPRESSION');
    expect(error.expression).toBe('$steps.missing.outputs.id');
    expect(error.pointer).toBe('/body/id');
    expect(error.message).toBe('expression $steps.missing.outputs.id resolved to nothing (at /body/id)');
    expect(unresolved('hi {$inputs.nobody}').expression).toBe('$inputs.nobody');
  });

  it('treats null as a value, not as unresolved', () => {
    expect(renderTemplate(compileTemplate({ v: '$inputs.n', s: 'n={$inputs.n}' }), { inputs: { n: null }, steps: {} })).toEqual({
      v: null,
      s: 'n=null',
    });
  });

  it('leaves unresolved expressions as written in keep mode', () => {
    expect(
      render({ a: '$inputs.nobody', b: 'x {$inputs.nobody} {$inputs.username}', c: '{$inputs.nobody}' }, { onUnresolved: 'keep' }),
    ).toEqual({ a: '$inputs.nobody', b: 'x {$inputs.nobody} ada', c: '{$inputs.nobody}' });
  });

  it('throws TemplateCycleError for a value that contains itself', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => compileTemplate(cyclic)).toThrow(TemplateCycleError);
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { v: '$inputs.username' };
    expect(render({ a: shared, b: shared })).toEqual({ a: { v: 'ada' }, b: { v: 'ada' } });
  });
});
