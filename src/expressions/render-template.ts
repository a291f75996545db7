/** Renders a compiled template against a context, building fresh plain objects. */
import type { ExpressionContext } from './context.js';
import type { Expression } from './ast.js';
import type { Template } from './template-ast.js';
import { UnresolvedExpressionError } from './errors.js';
import { evaluateExpression } from './evaluate-expression.js';
import { evaluateSelector } from './evaluate-selector.js';
import { describeSelector } from './selector-object.js';
import { stringifyJson } from './stringify-json.js';

export interface RenderOptions {
  /** 'throw' (default) fails on an expression that resolves to nothing; 'keep' (dry run) leaves its text in place. */
  onUnresolved?: 'throw' | 'keep';
  /**
   * An object member whose value is exactly one expression (`$inputs.x` or `"{$inputs.x}"`) that
   * resolves to nothing is left out, not an error, when this says so of the expression; `leftOut`
   * hears of each (the member's JSON pointer and the expression as written).
   */
  leaveOut?: (expression: Expression) => boolean;
  leftOut?: (pointer: string, source: string) => void;
  /** Encodes the text of each value embedded in a longer string (`a={$x}`): a querystring's form text percent-encodes them. */
  embed?: (text: string) => string;
}

function resolve(expression: Expression, raw: string, pointer: string, ctx: ExpressionContext, keep: boolean): unknown {
  const value = evaluateExpression(expression, ctx);
  if (value !== undefined) return value;
  if (keep) return raw;
  throw new UnresolvedExpressionError(expression.source, pointer);
}

/** The expression a member's value is exactly: `$x`, or a string that is only `{$x}`. */
export function soleExpression(t: Template): { expression: Expression; pointer: string } | undefined {
  if (t.kind === 'expression') return t;
  if (t.kind === 'interpolation' && t.parts.length === 1 && typeof t.parts[0] !== 'string') return { expression: t.parts[0]!.expression, pointer: t.pointer };
  return undefined;
}

const LEFT_OUT = Symbol('left out');

function render(t: Template, ctx: ExpressionContext, keep: boolean, opts: RenderOptions): unknown {
  switch (t.kind) {
    case 'literal':
      return t.value;
    case 'expression':
      return resolve(t.expression, t.raw, t.pointer, ctx, keep);
    case 'interpolation': {
      let out = '';
      for (const part of t.parts) {
        if (typeof part === 'string') {
          out += part;
          continue;
        }
        const value = resolve(part.expression, part.raw, t.pointer, ctx, keep);
        const text = typeof value === 'string' ? value : (stringifyJson(value) ?? '');
        out += opts.embed === undefined || value === part.raw ? text : opts.embed(text);
      }
      return out;
    }
    case 'selector': {
      const result = evaluateSelector(t.selector, ctx);
      if ('value' in result) return result.value;
      if (keep) return t.selector.written;
      throw new UnresolvedExpressionError(`${describeSelector(t.selector)} (${result.missing})`, t.pointer);
    }
    case 'array':
      return t.items.map((item) => render(item, ctx, keep, opts));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of t.entries) {
        const rendered = opts.leaveOut === undefined ? render(value, ctx, keep, opts) : renderMember(value, ctx, keep, opts);
        if (rendered === LEFT_OUT) continue;
        // defineProperty, not assignment: a "__proto__" key must become data, not a new prototype.
        Object.defineProperty(out, key, { value: rendered, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
  }
}

/** An object member's value, or LEFT_OUT when it is one expression that resolves to nothing and `opts.leaveOut` allows it. */
function renderMember(t: Template, ctx: ExpressionContext, keep: boolean, opts: RenderOptions): unknown {
  const sole = soleExpression(t);
  if (sole === undefined || !opts.leaveOut!(sole.expression) || evaluateExpression(sole.expression, ctx) !== undefined) return render(t, ctx, keep, opts);
  opts.leftOut?.(sole.pointer, sole.expression.source);
  return LEFT_OUT;
}

/** The template's value in `ctx`. Throws UnresolvedExpressionError when an expression resolves to nothing, unless `onUnresolved: 'keep'` (or `leaveOut` covers it). */
export function renderTemplate(t: Template, ctx: ExpressionContext, opts: RenderOptions = {}): unknown {
  return render(t, ctx, opts.onUnresolved === 'keep', opts);
}
