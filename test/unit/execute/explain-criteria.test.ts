import { describe, expect, it } from '@jest/globals';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { prepareCriterion, type Criterion } from '../../../src/plan/evaluate-criteria.js';
import { explainCriteria } from '../../../src/execute/explain-criteria.js';

const simple = (condition: string): Criterion => prepareCriterion({ condition, type: 'simple' } as never);
const ctx: ExpressionContext = { inputs: {}, steps: {}, statusCode: 422, response: { statusCode: 422, headers: {}, body: { id: 7, name: 'x' } } } as ExpressionContext;

describe('explainCriteria', () => {
  it('gives the operands and verdict of a single comparison', () => {
    expect(explainCriteria([simple('$statusCode == 201')], ctx)).toEqual([
      { source: '$statusCode == 201', kind: 'simple', holds: false, comparisons: [{ source: '$statusCode == 201', left: 422, op: '==', right: 201, holds: false }] },
    ]);
  });

  it('explains each comparison of an && chain, and an operand that resolves to nothing as null', () => {
    const [explained] = explainCriteria([simple('$response.body.id == 7 && $response.body.missing != null')], ctx);
    expect(explained?.holds).toBe(false);
    expect(explained?.comparisons.map((c) => [c.left, c.op, c.right, c.holds])).toEqual([
      [7, '==', 7, true],
      [null, '!=', null, false],
    ]);
  });

  it('reports an ordering comparison on a non-number as an error instead of throwing', () => {
    const [explained] = explainCriteria([simple('$response.body.name > 1')], ctx);
    expect(explained?.holds).toBeUndefined();
    expect(explained?.error).toBe('operand cannot be coerced to a number');
    expect(explained?.comparisons[0]).toMatchObject({ left: 'x', op: '>', right: 1 });
  });

  it('takes the verdict of typed criteria from the first miss, without evaluating them again', () => {
    const typed = (source: string) => ({ kind: 'regex', source, pattern: /never/ }) as unknown as Criterion;
    const verdicts = explainCriteria([typed('^a'), typed('^b'), typed('^c')], ctx, 1).map((c) => [c.source, c.holds, c.comparisons.length]);
    expect(verdicts).toEqual([
      ['^a', true, 0],
      ['^b', false, 0],
      ['^c', undefined, 0],
    ]);
  });
});
