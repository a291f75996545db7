/**
 * The inputs a workflow declares but does not require (v2): a request part whose value is one of
 * them, when the run was not given it, is left out rather than failing the step (execute-step.ts).
 * Read from the schema as written, without Ajv (schema-lookup.ts, through
 * `$ref: '#/components/inputs/…'`, the official examples' style, and `allOf` members).
 */
import type { ArazzoDocument, Workflow } from '../arazzo/model.js';
import { componentRefs, isObject, propertiesOf, requiredOf } from './schema-lookup.js';

/**
 * The names the workflow's inputs schema declares as properties and no `required` list names; an
 * empty set when it declares no schema (an undeclared input stays an error when it is missing).
 */
export function optionalInputs(doc: ArazzoDocument, workflow: Workflow): ReadonlySet<string> {
  const refs = componentRefs(isObject(doc.components?.inputs) ? doc.components.inputs : {});
  const declared = new Set(Object.keys(propertiesOf(workflow.inputs, refs, 0)));
  for (const name of requiredOf(workflow.inputs, refs)) declared.delete(name);
  return declared;
}
