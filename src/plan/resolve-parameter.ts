import { isReference, type ArazzoDocument, type Parameter, type Reference } from '../arazzo/model.js';
import { StepPreparationError } from './step-preparation-error.js';

/** A parameter, or the component parameter a reference names (its `value` overriding); throws StepPreparationError for a reference that names none. */
export function resolveParameter(doc: ArazzoDocument, entry: Parameter | Reference, stepId: string): Parameter {
  if (!isReference(entry)) return entry;
  const match = /^\$components\.parameters\.([A-Za-z0-9_.-]+)$/.exec(entry.reference);
  const parameters = doc.components?.parameters;
  const found = match && parameters && Object.hasOwn(parameters, match[1]!) ? parameters[match[1]!] : undefined;
  if (!found) throw new StepPreparationError('BAD_PARAMETER', `step "${stepId}": parameter reference "${entry.reference}" does not name a component parameter`);
  return entry.value === undefined ? found : { ...found, value: entry.value };
}
