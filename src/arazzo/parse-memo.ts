/** Parses each distinct expression and condition once per validation: a long workflow repeats the same few. */
import type { Expression, ExpressionDialect } from '../expressions/ast.js';
import type { Condition } from '../expressions/condition-ast.js';
import { parseCondition } from '../expressions/parse-condition.js';
import { parseExpression } from '../expressions/parse-expression.js';

/** A parse result, or what the parser threw (kept so every occurrence is reported as before). */
export type Parsed<T> = { value: T } | { error: unknown };

/** Memoised parseExpression and parseCondition; the parsers are pure, so a result can be shared. */
export class ParseMemo {
  private readonly expressions = new Map<string, Parsed<Expression>>();
  private readonly conditions = new Map<string, Parsed<Condition>>();

  /** `dialect`: the document's expression grammar (1.1 adds `$message` and `$self`). */
  constructor(private readonly dialect: ExpressionDialect = '1.0') {}

  /** parseExpression(source), parsed on its first request only. */
  expression(source: string): Parsed<Expression> {
    return remember(this.expressions, source, (text) => parseExpression(text, this.dialect));
  }

  /** parseCondition(source), parsed on its first request only. */
  condition(source: string): Parsed<Condition> {
    return remember(this.conditions, source, (text) => parseCondition(text, this.dialect));
  }
}

function remember<T>(results: Map<string, Parsed<T>>, source: string, parse: (source: string) => T): Parsed<T> {
  let result = results.get(source);
  if (result === undefined) {
    try {
      result = { value: parse(source) };
    } catch (error) {
      result = { error };
    }
    results.set(source, result);
  }
  return result;
}
