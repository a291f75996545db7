/** A compiled payload template: the JSON value with its expressions parsed, ready to render many times. */
import type { Expression } from './ast.js';
import type { CriterionLibraries } from './criterion-libraries.js';

/** One `{$expr}` inside a longer string; `raw` is the text with braces, shown as written in dry runs. */
export interface EmbeddedExpression {
  expression: Expression;
  raw: string;
}

export type Template =
  /** A leaf copied as is: a non-string value, or a string without expressions. */
  | { kind: 'literal'; value: unknown }
  /** A string that is exactly one expression (`$x`): rendered with the value's type kept. */
  | { kind: 'expression'; expression: Expression; raw: string; pointer: string }
  /** A string holding `{$expr}` pieces (alone or with text): rendered as a string. */
  | { kind: 'interpolation'; parts: Array<string | EmbeddedExpression>; pointer: string }
  /** A Selector Object (Arazzo 1.1): its selector applied to its context's value, the value's type kept. */
  | { kind: 'selector'; selector: CompiledSelector; pointer: string }
  | { kind: 'array'; items: Template[] }
  | { kind: 'object'; entries: Array<[key: string, value: Template]> };

/** A `$` string that did not parse and is therefore sent as written. */
export interface TemplateWarning {
  /** JSON pointer of the string inside the template value ('' for the root). */
  pointer: string;
  /** The text that looked like an expression. */
  source: string;
  message: string;
}

/** A Selector Object compiled once: its context parsed, its selector split on `{$…}` expressions; evaluated by evaluate-selector.ts. */
export interface CompiledSelector {
  context: Expression;
  type: string;
  /** As written; undefined when the type object gives none (the type's default). */
  version?: string;
  selector: string;
  /** The selector's `{$…}` expressions, filled in before each evaluation; absent when it has none. */
  embedded?: ReadonlyArray<string | EmbeddedExpression>;
  /** The mapping as written: a dry run shows it when the selector cannot be evaluated yet. */
  written: Record<string, unknown>;
  /** The libraries the run loaded (json-p3, fontoxpath); absent in validation, which only reads the expressions. */
  libraries?: CriterionLibraries;
}
