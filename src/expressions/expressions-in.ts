/** Lists the runtime expressions a condition uses, for validation. */
import type { Expression } from './ast.js';
import type { Condition } from './condition-ast.js';

/** Every runtime expression in the condition, in source order. */
export function expressionsIn(cond: Condition): Expression[] {
  switch (cond.kind) {
    case 'expression':
      return [cond.expression];
    case 'literal':
      return [];
    case 'not':
      return expressionsIn(cond.operand);
    case 'compare':
      return [...expressionsIn(cond.left), ...expressionsIn(cond.right)];
    default:
      return cond.operands.flatMap(expressionsIn);
  }
}
