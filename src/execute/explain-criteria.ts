/**
 * Why criteria held or not, for people: the values each comparison's operands resolved to. It
 * runs only to explain a failed step, never on the judging path (evaluate-criteria.ts decides).
 */
import type { CompareOp, Condition } from '../expressions/condition-ast.js';
import type { ExpressionContext } from '../expressions/context.js';
import { evaluateCondition, operandValue } from '../expressions/evaluate-condition.js';
import type { CriteriaSet, Criterion } from '../plan/evaluate-criteria.js';
import type { Comparison as BaseComparison, CriterionExplanation as BaseExplanation } from '../observe/explain-lines.js';

/** One comparison of a simple condition (or a lone operand such as `$response.body.ok`) with what its operands resolved to; the wording's own type is src/observe/explain-lines.ts's. */
export interface Comparison extends BaseComparison {
  op?: CompareOp;
}

/** The verdict on one criterion, with its comparisons (explain-lines.ts words it). */
export interface CriterionExplanation extends BaseExplanation {
  kind: Criterion['kind'];
  comparisons: Comparison[];
}

/**
 * Explains each criterion of `criteria` in `ctx`. Simple criteria are re-evaluated (they have no
 * side effects); a typed criterion's verdict is taken from `missIndex`, the index of the first
 * criterion that did not hold (criteria before it held, those after it were not evaluated; none
 * when all held), so that its warnings are not repeated. Never throws.
 */
export function explainCriteria(criteria: CriteriaSet, ctx: ExpressionContext, missIndex = criteria.length): CriterionExplanation[] {
  return criteria.map((criterion, index) => {
    if (criterion.kind !== 'simple') {
      return { source: criterion.source, kind: criterion.kind, holds: index < missIndex ? true : index === missIndex ? false : undefined, comparisons: [] };
    }
    const condition = criterion.condition;
    const parts = condition.kind === 'and' || condition.kind === 'or' ? condition.operands : [condition];
    const verdict = attempt(() => evaluateCondition(condition, ctx));
    const explained: CriterionExplanation = { source: criterion.source, kind: 'simple', holds: verdict.value, comparisons: parts.map((part) => compare(part, ctx)) };
    if (verdict.error !== undefined) explained.error = verdict.error;
    return explained;
  });
}

function compare(part: Condition, ctx: ExpressionContext): Comparison {
  const verdict = attempt(() => evaluateCondition(part, ctx));
  const comparison: Comparison =
    part.kind === 'compare'
      ? { source: part.source, left: attempt(() => operandValue(part.left, ctx)).value, op: part.op, right: attempt(() => operandValue(part.right, ctx)).value, holds: verdict.value }
      : { source: part.source, left: attempt(() => operandValue(part, ctx)).value, holds: verdict.value };
  if (verdict.error !== undefined) comparison.error = verdict.error;
  return comparison;
}

// An explanation must never fail the run it explains: an error becomes part of it.
function attempt<T>(run: () => T): { value: T | undefined; error?: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { value: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}
