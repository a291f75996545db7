/**
 * The inputs a workflow declares but does not require (v2): a request part whose value is one of
 * them, when the run was not given it, is left out rather than failing the step (execute-step.ts).
 * Read from the schema as written, without Ajv: its `properties` and `required`, through
 * `$ref: '#/components/inputs/…'` (the official examples' style) and `allOf` members.
 */
import type { ArazzoDocument, Workflow } from '../arazzo/model.js';

/** How many `$ref`s and `allOf`s deep the lookup goes (a schema referring to itself stops here). */
const MAX_DEPTH = 32;
const COMPONENT_REF = /^#\/components\/inputs\/([^/]+)$/;

/**
 * The names the workflow's inputs schema declares as properties and no `required` list names; an
 * empty set when it declares no schema (an undeclared input stays an error when it is missing).
 */
export function optionalInputs(doc: ArazzoDocument, workflow: Workflow): ReadonlySet<string> {
  const components = isObject(doc.components?.inputs) ? doc.components.inputs : {};
  const declared = new Set<string>();
  const required = new Set<string>();
  const visit = (schema: unknown, depth: number): void => {
    if (!isObject(schema) || depth > MAX_DEPTH) return;
    const ref = typeof schema.$ref === 'string' ? COMPONENT_REF.exec(schema.$ref) : null;
    if (ref) {
      const name = safeDecode(ref[1]!);
      if (name !== undefined && Object.hasOwn(components, name)) visit(components[name], depth + 1);
    }
    if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) declared.add(name);
    if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string') required.add(name);
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) visit(member, depth + 1);
  };
  visit(workflow.inputs, 0);
  for (const name of required) declared.delete(name);
  return declared;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
