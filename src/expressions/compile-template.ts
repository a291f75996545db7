/**
 * Compiles a payload (or parameter value) once: every string that is a runtime expression, or
 * holds `{$expr}` pieces, is parsed now, so rendering per step only evaluates.
 */
import type { ExpressionDialect } from './ast.js';
import type { CriterionLibraries } from './criterion-libraries.js';
import type { EmbeddedExpression, Template, TemplateWarning } from './template-ast.js';
import { ExpressionSyntaxError, TemplateCycleError } from './errors.js';
import { formatPointer } from './json-pointer.js';
import { parseExpression } from './parse-expression.js';
import { isSelectorShaped, readSelectorObject } from './selector-object.js';

/** How a document's values are read: its expression dialect, and (Arazzo 1.1) whether Selector Objects are. */
export interface TemplateOptions {
  /** `1.0` by default; `1.1` reads `$message` and `$self`. */
  dialect?: ExpressionDialect;
  /**
   * Present (1.1): a mapping of exactly `context`, `selector` and `type` is a Selector Object,
   * evaluated with these libraries (those the run loaded; none in validation). Absent (1.0): it is data.
   */
  selectors?: CriterionLibraries;
}

function literalWarning(pointer: string, source: string, error: ExpressionSyntaxError): TemplateWarning {
  return { pointer, source, message: `"${source}" is not a runtime expression, so it is sent as written (${error.message})` };
}

/** Splits a string on `{$expr}` pieces; pieces that do not parse stay text and draw a warning. */
export function splitEmbedded(text: string, pointer: string, warnings: TemplateWarning[], dialect: ExpressionDialect = '1.0'): Array<string | EmbeddedExpression> {
  const parts: Array<string | EmbeddedExpression> = [];
  let literal = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('{$', i);
    if (open < 0) break;
    const close = text.indexOf('}', open + 2);
    if (close < 0) {
      const source = text.slice(open);
      warnings.push({ pointer, source, message: `"${source}" has no closing "}", so it is sent as written` });
      break;
    }
    literal += text.slice(i, open);
    const raw = text.slice(open, close + 1);
    try {
      const expression = parseExpression(text.slice(open + 1, close), dialect);
      if (literal !== '') parts.push(literal);
      literal = '';
      parts.push({ expression, raw });
    } catch (error) {
      if (!(error instanceof ExpressionSyntaxError)) throw error;
      warnings.push(literalWarning(pointer, raw, error));
      literal += raw;
    }
    i = close + 1;
  }
  literal += text.slice(i);
  if (literal !== '') parts.push(literal);
  return parts;
}

function compileString(text: string, pointer: string, warnings: TemplateWarning[], dialect: ExpressionDialect = '1.0'): Template {
  const embeds = text.includes('{$');
  if (text.startsWith('$')) {
    try {
      return { kind: 'expression', expression: parseExpression(text, dialect), raw: text, pointer };
    } catch (error) {
      if (!(error instanceof ExpressionSyntaxError)) throw error;
      // A JSONPath such as `$.items[0]` lands here and must survive untouched.
      if (!embeds) {
        warnings.push(literalWarning(pointer, text, error));
        return { kind: 'literal', value: text };
      }
    }
  }
  if (!embeds) return { kind: 'literal', value: text };
  const parts = splitEmbedded(text, pointer, warnings, dialect);
  // "{$inputs.n}" alone is interpolation too, so a string ("7"); only a bare "$inputs.n" keeps the type.
  if (parts.every((part) => typeof part === 'string')) return { kind: 'literal', value: text };
  return { kind: 'interpolation', parts, pointer };
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A Selector Object's template: its context parsed (in the dialect) and its selector split on
 * `{$…}`. One whose fields are wrong, or whose context does not parse, stays data: validation
 * reports it as an error (check-selectors.ts), so a run never gets that far.
 */
function compileSelector(value: Record<string, unknown>, pointer: string, options: TemplateOptions): Template {
  const read = readSelectorObject(value);
  if ('problem' in read) return { kind: 'literal', value };
  let context;
  try {
    context = parseExpression(read.context.trim(), options.dialect);
  } catch (error) {
    if (!(error instanceof ExpressionSyntaxError)) throw error;
    return { kind: 'literal', value };
  }
  const parts = read.selector.includes('{$') ? splitEmbedded(read.selector, pointer, [], options.dialect) : [];
  const embedded = parts.some((part) => typeof part !== 'string') ? parts : undefined;
  const selector = { context, type: read.type, selector: read.selector, written: value, ...(read.version === undefined ? {} : { version: read.version }), ...(embedded ? { embedded } : {}), ...(options.selectors ? { libraries: options.selectors } : {}) };
  return { kind: 'selector', selector, pointer };
}

function compileNode(value: unknown, path: string[], ancestors: Set<object>, warnings: TemplateWarning[], options: TemplateOptions): Template {
  if (typeof value === 'string') return compileString(value, formatPointer(path), warnings, options.dialect);
  if (typeof value !== 'object' || value === null) return { kind: 'literal', value };
  if (!Array.isArray(value) && !isPlainObject(value)) return { kind: 'literal', value };
  if (options.selectors !== undefined && isSelectorShaped(value)) return compileSelector(value, formatPointer(path), options);
  if (ancestors.has(value)) throw new TemplateCycleError(formatPointer(path));
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return { kind: 'array', items: value.map((item, i) => compileNode(item, [...path, String(i)], ancestors, warnings, options)) };
    }
    const entries: Array<[string, Template]> = Object.keys(value).map((key) => [
      key,
      compileNode((value as Record<string, unknown>)[key], [...path, key], ancestors, warnings, options),
    ]);
    return { kind: 'object', entries };
  } finally {
    ancestors.delete(value);
  }
}

/**
 * Compiles a JSON value into a template, pushing a warning for each `$` string that stays literal;
 * `options` give the dialect and (1.1) turn Selector Objects on. Throws TemplateCycleError on a self-referencing value.
 */
export function compileTemplate(value: unknown, warnings: TemplateWarning[] = [], options: TemplateOptions = {}): Template {
  // Most values are one string or a number: no path or cycle set is needed for them.
  if (typeof value === 'string') return compileString(value, '', warnings, options.dialect);
  if (typeof value !== 'object' || value === null) return { kind: 'literal', value };
  return compileNode(value, [], new Set(), warnings, options);
}
