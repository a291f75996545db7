/**
 * A workflow's tool schemas: the input schema from its `inputs` (components' `$ref`s inlined,
 * defaults kept; an object schema, as MCP asks), the output schema from its declared outputs.
 * What the client may not give (server-given and refused secret-named inputs) is left out.
 */
import type { ArazzoDocument, Workflow } from '../../arazzo/model.js';
import { componentRefs, isObject, propertiesOf, requiredOf, type RefTarget } from '../../plan/schema-lookup.js';

/** How many `$ref`s deep inlining goes; a deeper (or recursive) reference becomes `{}` (any value; the run's own check still applies). */
const MAX_INLINE_DEPTH = 16;

/** The JSON Schema of a tool's arguments, without the inputs named in `hidden`. */
export function inputSchemaOf(workflow: Workflow, model: ArazzoDocument, hidden: ReadonlySet<string>): Record<string, unknown> {
  const refs = componentRefs(isObject(model.components?.inputs) ? model.components.inputs : {});
  const properties = Object.entries(propertiesOf(workflow.inputs, refs, 0)).filter(([name]) => !hidden.has(name));
  const required = requiredOf(workflow.inputs, refs).filter((name) => !hidden.has(name));
  const schema: Record<string, unknown> = { type: 'object', properties: Object.fromEntries(properties.map(([name, property]) => [name, inlined(property, refs, [])])) };
  if (required.length > 0) schema.required = required;
  const top = isObject(workflow.inputs) ? workflow.inputs : {};
  if (top.additionalProperties === false) schema.additionalProperties = false;
  return schema;
}

/** The names of the inputs a workflow declares (through `$ref`s and `allOf`). */
export function declaredInputs(workflow: Workflow, model: ArazzoDocument): string[] {
  const refs = componentRefs(isObject(model.components?.inputs) ? model.components.inputs : {});
  return Object.keys(propertiesOf(workflow.inputs, refs, 0));
}

/** The JSON Schema of a tool's structured result: one property per declared output, each the expression it comes from. */
export function outputSchemaOf(workflow: Workflow): Record<string, unknown> {
  const properties = Object.fromEntries(Object.entries(workflow.outputs).map(([name, value]) => [name, typeof value === 'string' ? { description: `from ${value}` } : {}]));
  return { type: 'object', properties };
}

/** A copy of `schema` with every `$ref` to a component replaced by the component (its sibling keywords kept). */
function inlined(schema: unknown, refs: RefTarget, seen: readonly string[]): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, refs, seen));
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const target = refs(ref);
    if (target === undefined || seen.includes(ref) || seen.length >= MAX_INLINE_DEPTH) return {};
    Object.assign(out, inlined(target, refs, [...seen, ref]));
  }
  for (const [key, value] of Object.entries(schema)) if (key !== '$ref') out[key] = inlined(value, refs, seen);
  return out;
}
