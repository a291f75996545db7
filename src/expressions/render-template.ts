/** Renders a compiled template against a context, building fresh plain objects. */
import type { ExpressionContext } from './context.js';
import type { Expression } from './ast.js';
import type { Template } from './template-ast.js';
import { UnresolvedExpressionError } from './errors.js';
import { evaluateExpression } from './evaluate-expression.js';
import { stringifyJson } from './stringify-json.js';

export interface RenderOptions {
  /** 'throw' (default) fails on an expression that resolves to nothing; 'keep' (dry run) leaves its text in place. */
  onUnresolved?: 'throw' | 'keep';
}

function resolve(expression: Expression, raw: string, pointer: string, ctx: ExpressionContext, keep: boolean): unknown {
  const value = evaluateExpression(expression, ctx);
  if (value !== undefined) return value;
  if (keep) return raw;
  throw new UnresolvedExpressionError(expression.source, pointer);
}

function render(t: Template, ctx: ExpressionContext, keep: boolean): unknown {
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
        out += typeof value === 'string' ? value : stringifyJson(value);
      }
      return out;
    }
    case 'array':
      return t.items.map((item) => render(item, ctx, keep));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of t.entries) {
        // defineProperty, not assignment: a "__proto__" key must become data, not a new prototype.
        Object.defineProperty(out, key, { value: render(value, ctx, keep), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
  }
}

/** The template's value in `ctx`. Throws UnresolvedExpressionError when an expression resolves to nothing, unless `onUnresolved: 'keep'`. */
export function renderTemplate(t: Template, ctx: ExpressionContext, opts: RenderOptions = {}): unknown {
  return render(t, ctx, opts.onUnresolved === 'keep');
}
