/**
 * Errors of the expression layer. Each carries a string-literal `code` and, for syntax errors,
 * the offending source and a 0-based offset into it, so callers can point a caret at it.
 */

/** Thrown by `parseExpression` when a string is not a runtime expression. */
export class ExpressionSyntaxError extends Error {
  readonly code = 'EXPRESSION_SYNTAX' as const;
  constructor(
    message: string,
    readonly source: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ExpressionSyntaxError';
  }
}

/** Thrown by `parseCondition` when a criterion's condition is not valid condition syntax. */
export class ConditionSyntaxError extends Error {
  readonly code = 'CONDITION_SYNTAX' as const;
  constructor(
    message: string,
    readonly source: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ConditionSyntaxError';
  }
}

/** Thrown by `evaluateCondition` when an ordering comparison gets an operand that is not numeric. */
export class ConditionEvaluationError extends Error {
  readonly code = 'CONDITION_EVALUATION' as const;
  constructor(
    message: string,
    /** Source text of the operand at fault, for callers that want to say more than the message. */
    readonly operand: string,
  ) {
    super(message);
    this.name = 'ConditionEvaluationError';
  }
}

/** Thrown by `renderTemplate` (default mode) when an expression in a template resolves to nothing. */
export class UnresolvedExpressionError extends Error {
  readonly code = 'UNRESOLVED_EXPRESSION' as const;
  constructor(
    readonly expression: string,
    /** JSON pointer of the template leaf holding the expression ('' for the root). */
    readonly pointer: string,
  ) {
    super(`expression ${expression} resolved to nothing${pointer ? ` (at ${pointer})` : ''}`);
    this.name = 'UnresolvedExpressionError';
  }
}

/** Thrown by `parsePointer` for a string that is not an RFC 6901 JSON pointer. */
export class PointerSyntaxError extends Error {
  readonly code = 'POINTER_SYNTAX' as const;
  constructor(
    message: string,
    readonly pointer: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'PointerSyntaxError';
  }
}

/** Thrown by `compileTemplate` when a payload refers to itself (a YAML alias cycle): it has no JSON form. */
export class TemplateCycleError extends Error {
  readonly code = 'TEMPLATE_CYCLE' as const;
  constructor(readonly pointer: string) {
    super(`payload contains a reference cycle at ${pointer || '/'}; it cannot be sent as JSON`);
    this.name = 'TemplateCycleError';
  }
}
