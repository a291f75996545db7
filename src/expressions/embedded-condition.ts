/**
 * `{$…}` runtime expressions embedded in a `regex`, `jsonpath` or `xpath` condition (Arazzo 1.0.1
 * §Criterion: expressions "can be embedded"; 1.1 makes it normative): they are evaluated first and
 * their values substituted into the condition text, which is then evaluated as its type says.
 * A `{$…}` that does not parse as a runtime expression stays text (a regex quantifier is `{2}`).
 */
import { splitEmbedded } from './compile-template.js';
import type { ExpressionDialect } from './ast.js';
import type { ExpressionContext } from './context.js';
import { evaluateExpression } from './evaluate-expression.js';
import { stringifyJson } from './stringify-json.js';
import type { EmbeddedExpression } from './template-ast.js';

/** A condition split into its text and its embedded expressions. */
export type EmbeddedCondition = ReadonlyArray<string | EmbeddedExpression>;

/** The condition's pieces, or undefined when it embeds no runtime expression. */
export function embeddedIn(condition: string, dialect: ExpressionDialect = '1.0'): EmbeddedCondition | undefined {
  if (!condition.includes('{$')) return undefined;
  const parts = splitEmbedded(condition, '', [], dialect);
  return parts.some((part) => typeof part !== 'string') ? parts : undefined;
}

/**
 * The condition with each expression's value in its place (a string as is, another scalar as its
 * text, an object or array as JSON), or the first expression that resolved to nothing.
 */
export function fillEmbedded(parts: EmbeddedCondition, ctx: ExpressionContext): { text: string } | { missing: string } {
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const value = evaluateExpression(part.expression, ctx);
    if (value === undefined) return { missing: part.raw };
    text += typeof value === 'string' ? value : stringifyJson(value);
  }
  return { text };
}

/** Stand-ins tried for each expression when the condition is checked before any value exists: a number fits a comparison or an index, a letter a name. */
const PLACEHOLDERS = ['0', 'x'];

/**
 * Checks that the condition compiles once its expressions have values: with each placeholder in
 * turn; throws the first placeholder's error when none compiles.
 */
export function checkWithPlaceholders(parts: EmbeddedCondition, compile: (text: string) => unknown): void {
  let first: unknown;
  for (const placeholder of PLACEHOLDERS) {
    try {
      compile(parts.map((part) => (typeof part === 'string' ? part : placeholder)).join(''));
      return;
    } catch (error) {
      first ??= error;
    }
  }
  throw first;
}
