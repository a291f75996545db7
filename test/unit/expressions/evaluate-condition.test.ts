import { describe, expect, it } from '@jest/globals';
import { isTruthy } from '../../../src/expressions/compare-values.js';
import { ConditionEvaluationError } from '../../../src/expressions/errors.js';
import { evaluateCondition } from '../../../src/expressions/evaluate-condition.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { sampleContext } from './sample-context.js';

const holds = (source: string, ctx: ExpressionContext = sampleContext()): boolean => evaluateCondition(parseCondition(source), ctx);

function evaluationError(source: string, ctx: ExpressionContext = sampleContext()): ConditionEvaluationError {
  try {
    holds(source, ctx);
  } catch (error) {
    if (error instanceof ConditionEvaluationError) return error;
    throw error;
  }
  throw new Error(`expected ${source} to fail`);
}

describe('isTruthy', () => {
  it.each<[string, unknown]>([
    ['false', false],
    ['null', null],
    ['undefined', undefined],
    ['0', 0],
    ['-0', -0],
    ['NaN', Number.NaN],
    ['the empty string', ''],
    ['the empty array', []],
    ['the empty object', {}],
  ])('treats %s as falsy', (_, value) => {
    expect(isTruthy(value)).toBe(false);
  });

  it.each<[string, unknown]>([
    ['true', true],
    ['1', 1],
    ['-1', -1],
    ['"0"', '0'],
    ['"false"', 'false'],
    ['a space', ' '],
    ['[0]', [0]],
    ['{a: null}', { a: null }],
  ])('treats %s as truthy', (_, value) => {
    expect(isTruthy(value)).toBe(true);
  });
});

describe('evaluateCondition', () => {
  describe('a bare expression', () => {
    it('holds when the value is truthy', () => {
      expect(holds('$statusCode')).toBe(true);
      expect(holds('$response.body#/items')).toBe(true);
    });

    it('fails for each falsy value and for a missing value', () => {
      const ctx: ExpressionContext = { inputs: { f: false, n: null, z: 0, s: '', a: [], o: {} }, steps: {} };
      for (const name of ['f', 'n', 'z', 's', 'a', 'o', 'missing']) expect(holds(`$inputs.${name}`, ctx)).toBe(false);
    });
  });

  describe('== and !=', () => {
    it.each<[string, boolean]>([
      ['$statusCode == 200', true],
      ['$statusCode == 201', false],
      ['$statusCode != 201', true],
      ["$statusCode == '200'", true],
      ["'200' == $statusCode", true],
      ["$statusCode == '200.0'", true],
      ["$statusCode == 'abc'", false],
      ['$inputs.count == 3', true],
      ["$inputs.count == '3'", true],
      ["$inputs.count == '3.0'", false],
      ["$inputs.username == 'ada'", true],
      ["$inputs.username == 'Ada'", true],
      ['$inputs.username == "ada"', true],
      ['$response.body#/empty == \'\'', true],
      ['$response.body#/missing == null', true],
      ['$response.body#/id != null', true],
      ['true == \'true\'', false],
      ['null == false', false],
      ['0 == false', false],
      ['1 == 1.0', true],
      ['-2.5 == -2.5', true],
    ])('evaluates %s to %s', (source, expected) => {
      expect(holds(source)).toBe(expected);
    });

    it('compares objects and arrays by JSON value, ignoring key order', () => {
      const ctx: ExpressionContext = {
        inputs: { a: { x: 1, y: [1, { z: 'q' }] }, b: { y: [1, { z: 'q' }], x: 1 }, c: { x: 1, y: [{ z: 'q' }, 1] } },
        steps: {},
      };
      expect(holds('$inputs.a == $inputs.b', ctx)).toBe(true);
      expect(holds('$inputs.a == $inputs.c', ctx)).toBe(false);
      expect(holds('$inputs.a != $inputs.c', ctx)).toBe(true);
    });
  });

  describe('< <= > >=', () => {
    it.each<[string, boolean]>([
      ['$statusCode < 300', true],
      ['$statusCode < 200', false],
      ['$statusCode <= 200', true],
      ['$statusCode > 199', true],
      ['$statusCode > 200', false],
      ['$statusCode >= 200', true],
      ["$inputs.count > '2'", true],
      ['$inputs.count >= 3.5', false],
      ['-1 < 0', true],
      ["'10' > '9'", true],
    ])('evaluates %s to %s numerically', (source, expected) => {
      expect(holds(source)).toBe(expected);
    });

    it.each([
      "$inputs.username > 1",
      '$statusCode < true',
      '$statusCode < null',
      '$response.body#/missing < 1',
      '$response.body#/items > 0',
      "$inputs.count < ''",
    ])('fails %s with the exact coercion message', (source) => {
      const error = evaluationError(source);
      expect(error.code).toBe('CONDITION_EVALUATION');
      expect(error.message).toBe('operand cannot be coerced to a number');
    });

    it('names the operand at fault', () => {
      expect(evaluationError('$statusCode >= $inputs.username').operand).toBe('$inputs.username');
    });
  });

  describe('&&, || and !', () => {
    it.each<[string, boolean]>([
      ['$statusCode == 200 && $inputs.username == \'ada\'', true],
      ['$statusCode == 200 && $inputs.username == \'bob\'', false],
      ['$statusCode == 201 || $statusCode == 200', true],
      ['$statusCode == 201 || $statusCode == 202', false],
      ['!$inputs.missing', true],
      ['!$statusCode', false],
      ['!($statusCode == 200)', false],
      ['true || false && false', true],
      ['(true || false) && false', false],
      ['!false == true', true],
      ['!!$statusCode', true],
    ])('evaluates %s to %s', (source, expected) => {
      expect(holds(source)).toBe(expected);
    });

    it('short-circuits, so a guarded ordering comparison never throws', () => {
      expect(holds('$response.body#/missing != null && $response.body#/missing > 1')).toBe(false);
      expect(holds('$response.body#/missing == null || $response.body#/missing > 1')).toBe(true);
    });
  });

  it('evaluates the same parsed condition against many contexts', () => {
    const cond = parseCondition('$statusCode == 200');
    const at = (statusCode: number): ExpressionContext => ({ inputs: {}, steps: {}, statusCode });
    expect([200, 404, 200].map((code) => evaluateCondition(cond, at(code)))).toEqual([true, false, true]);
  });
});
