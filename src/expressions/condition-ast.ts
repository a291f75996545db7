/** The AST of the simple condition language. `source` is the node's text, `offset` where it starts in the condition. */
import type { Expression } from './ast.js';

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type LiteralValue = string | number | boolean | null;

interface Node {
  source: string;
  offset: number;
}

/** A parsed condition, discriminated by `kind`. */
export type Condition =
  /** `access`: the `.name` and `[0]` accessors after the expression, as JSON pointer tokens (usually none). */
  | (Node & { kind: 'expression'; expression: Expression; access: string[] })
  | (Node & { kind: 'literal'; value: LiteralValue })
  | (Node & { kind: 'not'; operand: Condition })
  | (Node & { kind: 'compare'; op: CompareOp; left: Condition; right: Condition })
  /** A chain `a && b && c`: flat, so a chain of thousands of operands nests no deeper than one. */
  | (Node & { kind: 'and' | 'or'; operands: Condition[] });
