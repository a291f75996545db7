/**
 * Criteria, success and action alike: which ones v1 runs, how each is prepared, and how a set is
 * evaluated. A criterion's `kind` picks its evaluator; v1 has `simple`, and the v2 kinds (regex,
 * jsonpath, xpath) join it here.
 */
import type { Criterion as CriterionObject } from '../arazzo/model.js';
import type { Condition } from '../expressions/condition-ast.js';
import type { ExpressionContext } from '../expressions/context.js';
import { ConditionEvaluationError } from '../expressions/errors.js';
import { evaluateCondition } from '../expressions/evaluate-condition.js';
import { parseCondition } from '../expressions/parse-condition.js';

/** A `simple` criterion: a condition in Arazzo's condition language. */
export interface SimpleCriterion {
  kind: 'simple';
  condition: Condition;
  /** The condition as written, for messages. */
  source: string;
}

/** A criterion ready to evaluate. */
export type Criterion = SimpleCriterion;

/** Criteria that must all hold: a step's success criteria, or one action's. */
export type CriteriaSet = readonly Criterion[];

/** The first criterion of a set that does not hold; `error` says why it could not be evaluated, when it could not. */
export interface CriteriaMiss {
  criterion: Criterion;
  error?: string;
}

/** Why v1 cannot evaluate a criterion (its type, or a context), or undefined when it can. The one place that decides. */
export function unsupportedCriterion(criterion: CriterionObject): 'type' | 'context' | undefined {
  if (criterion.type !== 'simple') return 'type';
  if (criterion.context !== undefined && criterion.context !== '') return 'context';
  return undefined;
}

/** Prepares a criterion v1 can evaluate (see unsupportedCriterion). Throws ConditionSyntaxError on a condition that does not parse. */
export function prepareCriterion(criterion: CriterionObject): Criterion {
  const source = criterion.condition ?? '';
  return { kind: 'simple', condition: parseCondition(source), source };
}

/**
 * Evaluates criteria in order: undefined when all hold (an empty set holds), else the first that
 * does not, with `error` when it could not be evaluated (an ordering comparison on a non-number).
 * Throws only on bugs.
 */
export function evaluateCriteria(criteria: CriteriaSet, ctx: ExpressionContext): CriteriaMiss | undefined {
  for (const criterion of criteria) {
    try {
      if (!holds(criterion, ctx)) return { criterion };
    } catch (error) {
      if (!(error instanceof ConditionEvaluationError)) throw error;
      return { criterion, error: error.message };
    }
  }
  return undefined;
}

/** Whether evaluating the set can fail rather than answer (then the machine needs a way to fail the step). */
export function criteriaCanFail(criteria: CriteriaSet): boolean {
  return criteria.some((criterion) => {
    switch (criterion.kind) {
      case 'simple':
        return hasOrdering(criterion.condition);
    }
  });
}

function holds(criterion: Criterion, ctx: ExpressionContext): boolean {
  switch (criterion.kind) {
    case 'simple':
      return evaluateCondition(criterion.condition, ctx);
  }
}

/** Whether a condition contains an ordering comparison, the only thing whose evaluation can fail. */
function hasOrdering(condition: Condition): boolean {
  switch (condition.kind) {
    case 'compare':
      return ['<', '<=', '>', '>='].includes(condition.op) || hasOrdering(condition.left) || hasOrdering(condition.right);
    case 'and':
    case 'or':
      return condition.operands.some(hasOrdering);
    case 'not':
      return hasOrdering(condition.operand);
    default:
      return false;
  }
}
