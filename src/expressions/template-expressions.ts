/** Lists the runtime expressions a compiled template uses, for validation. */
import type { Expression } from './ast.js';
import type { Template } from './template-ast.js';

/** Every runtime expression in the template, in document order. */
export function templateExpressions(t: Template): Expression[] {
  switch (t.kind) {
    case 'literal':
      return [];
    case 'expression':
      return [t.expression];
    case 'interpolation':
      return t.parts.flatMap((part) => (typeof part === 'string' ? [] : [part.expression]));
    case 'array':
      return t.items.flatMap(templateExpressions);
    case 'object':
      return t.entries.flatMap(([, value]) => templateExpressions(value));
  }
}
