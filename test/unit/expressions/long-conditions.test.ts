/** Conditions with thousands of operands are flat; nesting is capped with a syntax error, never a stack overflow. */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ConditionEvaluationError, ConditionSyntaxError } from '../../../src/expressions/errors.js';
import { evaluateCondition } from '../../../src/expressions/evaluate-condition.js';
import { expressionsIn } from '../../../src/expressions/expressions-in.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';

const ctx: ExpressionContext = { inputs: { n: 3 }, steps: {}, statusCode: 200 };

function syntaxError(source: string): ConditionSyntaxError {
  try {
    parseCondition(source);
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${source.slice(0, 40)}… not to parse`);
}

describe('long chains', () => {
  it('parses, lists and evaluates a chain of 10,000 "&&" operands', () => {
    const source = Array.from({ length: 10_000 }, () => '$statusCode == 200').join(' && ');
    const cond = parseCondition(source);
    expect(cond).toMatchObject({ kind: 'and', offset: 0, source });
    expect(expressionsIn(cond)).toHaveLength(10_000);
    expect(evaluateCondition(cond, ctx)).toBe(true);
    expect(evaluateCondition(parseCondition(`${source} && $inputs.n > 5`), ctx)).toBe(false);
  });

  it('parses and evaluates a chain of 10,000 "||" operands of "&&" pairs', () => {
    const source = Array.from({ length: 10_000 }, (_, i) => `$inputs.n == ${i} && $statusCode == 200`).join(' || ');
    const cond = parseCondition(source);
    expect(cond.kind).toBe('or');
    expect(evaluateCondition(cond, ctx)).toBe(true);
    expect(evaluateCondition(cond, { ...ctx, inputs: { n: 10_001 } })).toBe(false);
  });

  it('stops at the first operand that decides a chain', () => {
    const tail = Array.from({ length: 5_000 }, () => '$inputs.missing > 1').join(' && ');
    expect(evaluateCondition(parseCondition(`$statusCode == 404 && ${tail}`), ctx)).toBe(false);
    expect(() => evaluateCondition(parseCondition(`$statusCode == 200 && ${tail}`), ctx)).toThrow(ConditionEvaluationError);
  });
});

describe('nesting', () => {
  it('accepts 64 levels of parentheses and refuses 65 with where and why', () => {
    expect(evaluateCondition(parseCondition(`${'('.repeat(64)}$statusCode == 200${')'.repeat(64)}`), ctx)).toBe(true);
    const error = syntaxError(`${'('.repeat(65)}$statusCode == 200${')'.repeat(65)}`);
    expect(error.message).toBe('the condition nests deeper than 64 levels of parentheses and "!"; split it into several criteria');
    expect(error.offset).toBe(64);
  });

  it('refuses 10,000 levels of parentheses or "!" with a syntax error', () => {
    expect(syntaxError(`${'('.repeat(10_000)}$url${')'.repeat(10_000)}`).message).toContain('nests deeper than 64 levels');
    expect(syntaxError(`${'!'.repeat(10_000)}$url`).message).toContain('nests deeper than 64 levels');
  });
});

describe('properties of long and deep conditions', () => {
  const operand = fc.constantFrom('$statusCode == 200', '$inputs.n > 1', '!$inputs.x', "'a' != 'b'", 'true', '$inputs.n <= 2', '(', ')', '!', '&&', '||', '==');
  const joiner = fc.constantFrom(' && ', ' || ', ' ', '', '(', ')', '!');
  /** Random token soup, thousands of pieces long, with runs of "(" and "!" deep enough to pass the cap. */
  const longText = fc
    .tuple(
      fc.array(fc.tuple(operand, joiner), { minLength: 1, maxLength: 3_000 }),
      fc.nat({ max: 200 }),
      fc.nat({ max: 200 }),
      fc.constantFrom('(', '!', '( !'),
    )
    .map(([pieces, open, close, nest]) => `${nest.repeat(open)}${pieces.map(([o, j]) => o + j).join('')}${')'.repeat(close)}`);

  it('parseCondition throws only ConditionSyntaxError, and evaluation only ConditionEvaluationError', () => {
    fc.assert(
      fc.property(longText, (source) => {
        let cond;
        try {
          cond = parseCondition(source);
        } catch (error) {
          expect(error).toBeInstanceOf(ConditionSyntaxError);
          const { offset } = error as ConditionSyntaxError;
          expect(offset >= 0 && offset <= source.length).toBe(true);
          return;
        }
        try {
          expect(typeof evaluateCondition(cond, ctx)).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(ConditionEvaluationError);
        }
      }),
      { numRuns: 150 },
    );
  });
});
