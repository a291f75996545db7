import { compileTemplate, type TemplateOptions } from '../expressions/compile-template.js';
import type { ExpressionContext } from '../expressions/context.js';
import { escapePointerToken } from '../expressions/json-pointer.js';
import { renderTemplate } from '../expressions/render-template.js';
import type { Template, TemplateWarning } from '../expressions/template-ast.js';

/** Compiled `outputs` of a step or workflow: name and value template, parsed once. */
export type CompiledOutputs = Array<[name: string, value: Template]>;

/** Compiles an `outputs` map (in 1.1 a value may be a Selector Object, `templates`); a `$` string that does not parse stays literal and is added to `warnings`. */
export function compileOutputs(outputs: Record<string, unknown>, pointer: string, warnings: TemplateWarning[], templates: TemplateOptions = {}): CompiledOutputs {
  return Object.entries(outputs).map(([name, value]) => {
    const local: TemplateWarning[] = [];
    const template = compileTemplate(value, local, templates);
    for (const w of local) warnings.push({ ...w, pointer: `${pointer}/${escapePointerToken(name)}${w.pointer}` });
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
