/**
 * Every place an Arazzo 1.1 document may hold Selector Objects: parameter values (of steps,
 * workflows, actions and components), request-body payloads (anywhere inside), replacement values
 * and step and workflow outputs. Used by validation (check-selectors.ts) and to load the libraries
 * a run needs (criteria-options.ts).
 */
import { isSelectorShaped } from '../expressions/selector-object.js';
import { childPointer } from './read-fields.js';
import { isReference, type ActionOrReference, type ArazzoDocument, type Parameter, type Reference } from './model.js';

/** A selector-shaped mapping and the JSON pointer where it is. */
export interface FoundSelector {
  value: Record<string, unknown>;
  pointer: string;
  /** An output's value itself: structural validation checks its fields' types already (SHAPES_1_1 `selector`). */
  output?: boolean;
}

/** The values a document's selectors may sit in, with their pointers: each is searched for selector-shaped mappings. */
export function selectorHolders(doc: ArazzoDocument): Array<{ value: unknown; pointer: string; output?: boolean }> {
  const holders: Array<{ value: unknown; pointer: string; output?: boolean }> = [];
  const parameters = (list: ReadonlyArray<Parameter | Reference>) => {
    for (const parameter of list) if (parameter.value !== undefined) holders.push({ value: parameter.value, pointer: childPointer(parameter.pointer, 'value') });
  };
  const actions = (chain: ActionOrReference[] | undefined) => chain?.forEach((action) => !isReference(action) && parameters(action.parameters));
  const outputs = (map: Record<string, unknown>, pointer: string) => {
    for (const [name, value] of Object.entries(map)) holders.push({ value, pointer: childPointer(childPointer(pointer, 'outputs'), name), output: true });
  };
  for (const workflow of doc.workflows) {
    parameters(workflow.parameters);
    actions(workflow.successActions);
    actions(workflow.failureActions);
    for (const step of workflow.steps) {
      parameters(step.parameters);
      const body = step.requestBody;
      if (body?.payload !== undefined) holders.push({ value: body.payload, pointer: childPointer(body.pointer, 'payload') });
      for (const replacement of body?.replacements ?? []) if (replacement.value !== undefined) holders.push({ value: replacement.value, pointer: childPointer(replacement.pointer, 'value') });
      actions(step.onSuccess);
      actions(step.onFailure);
      outputs(step.outputs, step.pointer);
    }
    outputs(workflow.outputs, workflow.pointer);
  }
  for (const parameter of Object.values(doc.components?.parameters ?? {})) parameters([parameter]);
  for (const action of [...Object.values(doc.components?.successActions ?? {}), ...Object.values(doc.components?.failureActions ?? {})]) parameters(action.parameters);
  return holders;
}

/** The selector-shaped mappings inside `value` (itself included), outermost first; a selector's own fields are not searched. */
export function selectorsIn(value: unknown, pointer: string, found: FoundSelector[] = [], seen: Set<object> = new Set()): FoundSelector[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return found;
  seen.add(value);
  if (isSelectorShaped(value)) {
    found.push({ value, pointer });
    return found;
  }
  if (Array.isArray(value)) value.forEach((item, i) => selectorsIn(item, childPointer(pointer, i), found, seen));
  else for (const [key, item] of Object.entries(value)) selectorsIn(item, childPointer(pointer, key), found, seen);
  return found;
}

/** Every Selector Object of the document. */
export function allSelectors(doc: ArazzoDocument): FoundSelector[] {
  const found: FoundSelector[] = [];
  for (const holder of selectorHolders(doc)) {
    const before = found.length;
    selectorsIn(holder.value, holder.pointer, found);
    if (holder.output && found.length > before && found[before]!.pointer === holder.pointer) found[before]!.output = true;
  }
  return found;
}

/** The expression types a 1.1 document's selectors and replacement targets use (`jsonpath`, `xpath`...), for the libraries to load. */
export function selectorTypes(doc: ArazzoDocument): Set<string> {
  const types = new Set<string>();
  for (const { value } of allSelectors(doc)) {
    const type = value.type;
    if (typeof type === 'string') types.add(type);
    else if (typeof type === 'object' && type !== null && typeof (type as { type?: unknown }).type === 'string') types.add((type as { type: string }).type);
  }
  for (const workflow of doc.workflows) for (const step of workflow.steps) for (const r of step.requestBody?.replacements ?? []) if (r.targetSelectorType !== undefined) types.add(r.targetSelectorType);
  return types;
}
