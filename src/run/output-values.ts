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
  for (const [name, template] of outputs) {
    let value: unknown;
    try {
      value = renderTemplate(template, ctx);
    } catch {
      value = null;
    }
    Object.defineProperty(result, name, { value: value ?? null, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

/** RFC 6901 escaping of one reference token. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
