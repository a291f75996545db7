import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { compileTemplate } from '../../../src/expressions/compile-template.js';
import { ConditionEvaluationError, ConditionSyntaxError, ExpressionSyntaxError } from '../../../src/expressions/errors.js';
import { evaluateCondition } from '../../../src/expressions/evaluate-condition.js';
import { evaluateExpression } from '../../../src/expressions/evaluate-expression.js';
import { formatPointer, parsePointer, resolvePointer } from '../../../src/expressions/json-pointer.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import { parseExpression } from '../../../src/expressions/parse-expression.js';
import { renderTemplate } from '../../../src/expressions/render-template.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';

/** Strings made of the grammar's own pieces reach far deeper into the parsers than random text. */
const FRAGMENTS = [
  '$', '.', '#', '/', '~', '~0', '~1', '~2', 'url', 'method', 'statusCode', 'steps', 'outputs', 'response', 'request',
  'body', 'header', 'query', 'path', 'inputs', 'workflow', 'workflows', 'components', 'parameters', 'sourceDescriptions',
  'a', 'X-Id', '-', '_', ' ', '==', '!=', '<', '<=', '>', '>=', '=', '&&', '||', '&', '!', '(', ')', "'", '"', '\\',
  '\\u00', '1', '-2.5', '1e3', 'true', 'false', 'null', 'ok', '{', '}', '{$', '[', ']', '\u00e9', '\ud800',
];
const grammarish = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 16 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary' }), grammarish);

const EXPRESSIONS = [
  '$url', '$method', '$statusCode', '$request.header.X-Id', '$request.query.q', '$request.path.p', '$request.body#/a',
  '$response.header.x-id', '$response.body#/a/0', '$response.statusCode', '$inputs.a', '$inputs.a#/b', '$workflow.inputs.a',
  '$outputs.a#/0', '$steps.s.outputs.a#/b', '$steps.s.response.body#/a', '$steps.s.response.header.X-Id',
  '$steps.s.response.statusCode', '$steps.s.request.body', '$workflows.w.outputs.a', '$sourceDescriptions.d.url',
  '$components.inputs.a#/b',
];

/** A context whose every slot holds arbitrary JSON, including wrong shapes. */
const anyContext: fc.Arbitrary<ExpressionContext> = fc
  .record({ a: fc.jsonValue(), b: fc.jsonValue(), c: fc.jsonValue(), d: fc.jsonValue() })
  .map(({ a, b, c, d }) => {
    const headers = (typeof b === 'object' && b !== null ? b : { 'X-Id': b }) as Record<string, string>;
    const response = { statusCode: a as number, headers, body: c };
    const request = { headers, query: { q: b as string }, path: { p: d as string }, body: a };
    return {
      inputs: { a: c },
      steps: { s: { outputs: { a: d }, response, request } },
      request,
      response,
      outputs: { a: b },
      workflows: { w: { outputs: { a } } },
      sourceDescriptions: { d: { url: d } },
      components: { inputs: { a: b } },
    } as ExpressionContext;
  });

function placeAt(path: Array<string | number>, leaf: unknown, filler: unknown): unknown {
  return path.reduceRight<unknown>((inner, segment) => {
    if (typeof segment === 'number') {
      const array: unknown[] = Array.from({ length: segment + 1 }, () => filler);
      array[segment] = inner;
      return array;
    }
    const object: Record<string, unknown> = { sibling: filler };
    Object.defineProperty(object, segment, { value: inner, enumerable: true, writable: true, configurable: true });
    return object;
  }, leaf);
}

describe('properties', () => {
  it('parseExpression throws only ExpressionSyntaxError, with an offset inside the source', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, anyText.map((s) => `$${s}`)), (source) => {
        try {
          expect(parseExpression(source).source).toBe(source);
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionSyntaxError);
          const { offset } = error as ExpressionSyntaxError;
          expect(offset >= 0 && offset <= source.length).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('parseCondition throws only ConditionSyntaxError, with an offset inside the source', () => {
    fc.assert(
      fc.property(anyText, (source) => {
        try {
          parseCondition(source);
        } catch (error) {
          expect(error).toBeInstanceOf(ConditionSyntaxError);
          const { offset } = error as ConditionSyntaxError;
          expect(offset >= 0 && offset <= source.length).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('evaluation never throws for missing or oddly shaped data, and conditions only with ConditionEvaluationError', () => {
    const parsed = EXPRESSIONS.map((source) => parseExpression(source));
    const ops = ['==', '!=', '<', '<=', '>', '>='];
    fc.assert(
      fc.property(anyContext, fc.constantFrom(...EXPRESSIONS), fc.constantFrom(...ops), fc.constantFrom(...EXPRESSIONS), (ctx, left, op, right) => {
        for (const expr of parsed) evaluateExpression(expr, ctx);
        try {
          expect(typeof evaluateCondition(parseCondition(`${left} ${op} ${right} || !${left}`), ctx)).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(ConditionEvaluationError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('parsePointer undoes formatPointer for any tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('~', '/', '~1', '~0', '/~', ''))), (tokens) => {
        expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
      }),
    );
  });

  it('resolvePointer finds a value placed at any path in generated JSON', () => {
    const segment = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', '-', '0', '~', '/'), fc.nat({ max: 5 }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.jsonValue(), fc.jsonValue(), (path, leaf, filler) => {
        const doc = placeAt(path, leaf, filler);
        const pointer = formatPointer(path.map(String));
        expect(resolvePointer(doc, parsePointer(pointer))).toBe(leaf);
      }),
    );
  });

  it('renders any JSON without expressions back to an equal value', () => {
    const plain = fc.jsonValue().filter((v) => !/"\$|\{\$/.test(JSON.stringify(v)));
    fc.assert(
      fc.property(plain, (value) => {
        expect(JSON.stringify(renderTemplate(compileTemplate(value), { inputs: {}, steps: {} }))).toBe(JSON.stringify(value));
      }),
    );
  });
});
