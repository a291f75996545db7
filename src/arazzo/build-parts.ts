/** Builders for the small, shared parts of the model: parameters, request bodies, criteria, actions. */
import type { Action, ActionOrReference, Criterion, Parameter, Reference, RequestBody } from './model.js';
import { arrayField, childPointer, extraOf, isObject, numberField, stringField, type RawObject } from './read-fields.js';

const PARAMETER_FIELDS = ['name', 'in', 'value'] as const;
const REFERENCE_FIELDS = ['reference', 'value'] as const;
const BODY_FIELDS = ['contentType', 'payload', 'replacements'] as const;
const CRITERION_FIELDS = ['condition', 'type', 'context'] as const;
const ACTION_FIELDS = ['name', 'type', 'criteria', 'retryAfter', 'retryLimit', 'stepId', 'workflowId', 'parameters'] as const;

/** A `reference` object (`{ reference, value? }`), used for parameters and actions. */
export function buildReference(o: RawObject, pointer: string): Reference {
  const ref: Reference = { pointer, extra: extraOf(o, REFERENCE_FIELDS), reference: String(o.reference) };
  if ('value' in o) ref.value = o.value;
  return ref;
}

/** A parameter, or a reference to a component parameter when it has a string `reference`. */
export function buildParameter(o: RawObject, pointer: string): Parameter | Reference {
  return typeof o.reference === 'string' ? buildReference(o, pointer) : buildInlineParameter(o, pointer);
}

/** An inline parameter (`name`, `in`, `value`). */
export function buildInlineParameter(o: RawObject, pointer: string): Parameter {
  const parameter: Parameter = { pointer, extra: extraOf(o, PARAMETER_FIELDS) };
  const name = stringField(o, 'name');
  const where = stringField(o, 'in');
  if (name !== undefined) parameter.name = name;
  if (where !== undefined) parameter.in = where;
  if ('value' in o) parameter.value = o.value;
  return parameter;
}

/** The mapping items of the array at `o[key]`, built with their pointers; non-mapping items are skipped (validation reports them). */
export function buildList<T>(o: RawObject, key: string, pointer: string, build: (item: RawObject, pointer: string) => T): T[] {
  const out: T[] = [];
  const list = arrayField(o, key) ?? [];
  list.forEach((item, index) => {
    if (isObject(item)) out.push(build(item, childPointer(childPointer(pointer, key), index)));
  });
  return out;
}

/** A step's request body with its replacements. */
export function buildRequestBody(o: RawObject, pointer: string): RequestBody {
  const body: RequestBody = {
    pointer,
    extra: extraOf(o, BODY_FIELDS),
    replacements: buildList(o, 'replacements', pointer, (item, at) => {
      const replacement: RequestBody['replacements'][number] = { pointer: at };
      const target = stringField(item, 'target');
      if (target !== undefined) replacement.target = target;
      if ('value' in item) replacement.value = item.value;
      const selectorType = item.targetSelectorType;
      if (typeof selectorType === 'string' || (isObject(selectorType) && typeof selectorType.type === 'string')) replacement.targetSelectorType = criterionType(selectorType);
      if (isObject(selectorType) && typeof selectorType.version === 'string') replacement.targetSelectorVersion = selectorType.version;
      return replacement;
    }),
  };
  const contentType = stringField(o, 'contentType');
  if (contentType !== undefined) body.contentType = contentType;
  if ('payload' in o) body.payload = o.payload;
  return body;
}

/** A criterion; `type` defaults to `simple`, and a `{ type, version }` expression type is flattened to its type. */
export function buildCriterion(o: RawObject, pointer: string): Criterion {
  const criterion: Criterion = { pointer, extra: extraOf(o, CRITERION_FIELDS), type: criterionType(o.type) };
  const condition = stringField(o, 'condition');
  const context = stringField(o, 'context');
  if (condition !== undefined) criterion.condition = condition;
  if (context !== undefined) criterion.context = context;
  if (isObject(o.type) && typeof o.type.version === 'string') criterion.version = o.type.version;
  return criterion;
}

function criterionType(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.type === 'string') return value.type;
  return 'simple';
}

/** A success or failure action. */
export function buildAction(o: RawObject, pointer: string): Action {
  const action: Action = { pointer, extra: extraOf(o, ACTION_FIELDS), criteria: buildList(o, 'criteria', pointer, buildCriterion), parameters: buildList(o, 'parameters', pointer, buildParameter) };
  const strings = { name: stringField(o, 'name'), type: stringField(o, 'type'), stepId: stringField(o, 'stepId'), workflowId: stringField(o, 'workflowId') };
  for (const [key, value] of Object.entries(strings)) {
    if (value !== undefined) action[key as keyof typeof strings] = value;
  }
  const retryAfter = numberField(o, 'retryAfter');
  const retryLimit = numberField(o, 'retryLimit');
  if (retryAfter !== undefined) action.retryAfter = retryAfter;
  if (retryLimit !== undefined) action.retryLimit = retryLimit;
  return action;
}

/** An inline action, or a reference when it has a string `reference`. */
export function buildActionOrReference(o: RawObject, pointer: string): ActionOrReference {
  return typeof o.reference === 'string' ? buildReference(o, pointer) : buildAction(o, pointer);
}

/** The action chain at `o[key]`: undefined when absent (or not a list), so `[]` stays an explicit opt-out. */
export function buildChain(o: RawObject, key: string, pointer: string): ActionOrReference[] | undefined {
  return arrayField(o, key) === undefined ? undefined : buildList(o, key, pointer, buildActionOrReference);
}
