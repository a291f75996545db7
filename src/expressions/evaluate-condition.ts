/** Evaluates a parsed condition. Expressions that resolve to nothing count as null. */
import type { Condition } from './condition-ast.js';
import type { ExpressionContext } from './context.js';
import { isTruthy, looseEqual, toNumber } from './compare-values.js';
import { ConditionEvaluationError } from './errors.js';
import { evaluateExpression } from './evaluate-expression.js';
import { resolvePointer } from './json-pointer.js';

/** The spec's exact wording; callers and users match on it. */
const NOT_A_NUMBER = 'operand cannot be coerced to a number';

function numeric(node: Condition, ctx: ExpressionContext): number {
  const n = toNumber(operandValue(node, ctx));
  if (n === undefined) throw new ConditionEvaluationError(NOT_A_NUMBER, node.source);
  return n;
}

/** What an operand evaluates to: an expression that resolves to nothing is null; a nested condition is a boolean. */
export function operandValue(node: Condition, ctx: ExpressionContext): unknown {
  switch (node.kind) {
    case 'expression': {
      const value = evaluateExpression(node.expression, ctx);
      return (node.access.length === 0 ? value : resolvePointer(value, node.access)) ?? null;
    }
    case 'literal':
      return node.value;
    case 'not':
      return !isTruthy(operandValue(node.operand, ctx));
    case 'and':
      for (const operand of node.operands) if (!isTruthy(operandValue(operand, ctx))) return false;
      return true;
    case 'or':
      for (const operand of node.operands) if (isTruthy(operandValue(operand, ctx))) return true;
      return false;
    case 'compare':
      switch (node.op) {
        case '==':
          return looseEqual(operandValue(node.left, ctx), operandValue(node.right, ctx));
        case '!=':
          return !looseEqual(operandValue(node.left, ctx), operandValue(node.right, ctx));
        case '<':
          return numeric(node.left, ctx) < numeric(node.right, ctx);
        case '<=':
          return numeric(node.left, ctx) <= numeric(node.right, ctx);
        case '>':
          return numeric(node.left, ctx) > numeric(node.right, ctx);
        case '>=':
          return numeric(node.left, ctx) >= numeric(node.right, ctx);
      }
  }
}

/** Whether the condition holds in `ctx`. Throws ConditionEvaluationError when `<`, `<=`, `>` or `>=` meets a non-numeric operand. */
export function evaluateCondition(cond: Condition, ctx: ExpressionContext): boolean {
  return isTruthy(operandValue(cond, ctx));
}
