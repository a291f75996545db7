import { compileTemplate, renderTemplate, type ExpressionContext, type Template, type TemplateWarning } from '../expressions/index.js';

/** Compiled `outputs` of a step or workflow: name and value template, parsed once. */
export type CompiledOutputs = Array<[name: string, value: Template]>;

/** Compiles an `outputs` map; a `$` string that does not parse stays literal and is added to `warnings`. */
export function compileOutputs(outputs: Record<string, unknown>, pointer: string, warnings: TemplateWarning[]): CompiledOutputs {
  return Object.entries(outputs).map(([name, value]) => {
    const local: TemplateWarning[] = [];
    const template = compileTemplate(value, local);
    for (const w of local) warnings.push({ ...w, pointer: `${pointer}/${escapeToken(name)}${w.pointer}` });
    return [name, template];
  });
}

/** Evaluates compiled outputs; an output whose expression resolves to nothing is null. */
export function evaluateOutputs(outputs: CompiledOutputs, ctx: ExpressionContext): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, template] of outputs) define(result, name, renderOrNull(template, ctx));
  return result;
}

/**
 * Evaluates a workflow's outputs in the order written; `$outputs.<name>` in one of them is an
 * output evaluated before it (`ctx.outputs` is replaced by the outputs so far).
 */
export function evaluateWorkflowOutputs(outputs: CompiledOutputs, ctx: ExpressionContext): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const own: ExpressionContext = { ...ctx, outputs: result };
  for (const [name, template] of outputs) define(result, name, renderOrNull(template, own));
  return result;
}

function renderOrNull(template: Template, ctx: ExpressionContext): unknown {
  try {
    return renderTemplate(template, ctx) ?? null;
  } catch {
    return null;
  }
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** RFC 6901 escaping of one reference token. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
