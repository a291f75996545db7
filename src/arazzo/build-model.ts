/** Builds the typed model from the raw YAML value, keeping each object's JSON pointer. */
import { buildAction, buildChain, buildCriterion, buildInlineParameter, buildList, buildParameter, buildRequestBody } from './build-parts.js';
import type { Action, ArazzoDocument, Components, Info, OutputValue, SourceDescription, Step, Workflow } from './model.js';
import { childPointer, extraOf, isObject, objectField, setOwn, stringField, stringList, type RawObject } from './read-fields.js';

const DOCUMENT_FIELDS = ['arazzo', '$self', 'info', 'sourceDescriptions', 'workflows', 'components'] as const;
const INFO_FIELDS = ['title', 'summary', 'description', 'version'] as const;
const SOURCE_FIELDS = ['name', 'url', 'type', 'x-tool-api'] as const;
const COMPONENT_FIELDS = ['inputs', 'parameters', 'successActions', 'failureActions'] as const;
const WORKFLOW_FIELDS = ['workflowId', 'summary', 'description', 'inputs', 'dependsOn', 'steps', 'successActions', 'failureActions', 'outputs', 'parameters'] as const;
const STEP_FIELDS = ['stepId', 'description', 'operationId', 'operationPath', 'workflowId', 'parameters', 'requestBody', 'successCriteria', 'onSuccess', 'onFailure', 'outputs', 'channelPath', 'timeout', 'correlationId', 'action', 'dependsOn'] as const;

/** The model of a raw document value. Never throws: fields of the wrong type read as absent or empty, for validation to report. */
export function buildModel(raw: unknown): ArazzoDocument {
  const o = isObject(raw) ? raw : {};
  const doc: ArazzoDocument = {
    pointer: '',
    extra: extraOf(o, DOCUMENT_FIELDS),
    sourceDescriptions: buildList(o, 'sourceDescriptions', '', buildSource),
    workflows: buildList(o, 'workflows', '', buildWorkflow),
  };
  // YAML reads `arazzo: 1.0` as a number; keep its text so the version check can name it.
  if (typeof o.arazzo === 'string' || typeof o.arazzo === 'number') doc.arazzo = String(o.arazzo);
  const self = stringField(o, '$self');
  if (self !== undefined) doc.self = self;
  const info = objectField(o, 'info');
  if (info) doc.info = buildInfo(info, '/info');
  const components = objectField(o, 'components');
  if (components) doc.components = buildComponents(components, '/components');
  return doc;
}

function assignStrings<T extends object>(target: T, o: RawObject, keys: ReadonlyArray<keyof T & string>): void {
  for (const key of keys) {
    const value = stringField(o, key);
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}

function buildInfo(o: RawObject, pointer: string): Info {
  const info: Info = { pointer, extra: extraOf(o, INFO_FIELDS) };
  assignStrings(info, o, ['title', 'summary', 'description', 'version']);
  return info;
}

function buildSource(o: RawObject, pointer: string): SourceDescription {
  const source: SourceDescription = { pointer, extra: extraOf(o, SOURCE_FIELDS) };
  assignStrings(source, o, ['name', 'url', 'type']);
  const api = stringField(o, 'x-tool-api');
  if (api !== undefined) source.api = api;
  return source;
}

function buildNamed<T>(o: RawObject, key: string, pointer: string, build: (item: RawObject, pointer: string) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, value] of Object.entries(objectField(o, key) ?? {})) {
    if (isObject(value)) setOwn(out, name, build(value, childPointer(childPointer(pointer, key), name)));
  }
  return out;
}

function copyOwn(o: RawObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o)) setOwn(out, key, value);
  return out;
}

function buildComponents(o: RawObject, pointer: string): Components {
  return {
    pointer,
    extra: extraOf(o, COMPONENT_FIELDS),
    inputs: copyOwn(objectField(o, 'inputs') ?? {}),
    parameters: buildNamed(o, 'parameters', pointer, buildInlineParameter),
    successActions: buildNamed<Action>(o, 'successActions', pointer, buildAction),
    failureActions: buildNamed<Action>(o, 'failureActions', pointer, buildAction),
  };
}

/** `outputs`: expressions, and mappings (Arazzo 1.1 Selector Objects; in a 1.0 document structural validation rejects them); other values are left out. */
function outputMap(o: RawObject): Record<string, OutputValue> {
  const out: Record<string, OutputValue> = {};
  for (const [name, value] of Object.entries(objectField(o, 'outputs') ?? {})) if (typeof value === 'string' || isObject(value)) setOwn(out, name, value);
  return out;
}

function buildWorkflow(o: RawObject, pointer: string): Workflow {
  const workflow: Workflow = {
    pointer,
    extra: extraOf(o, WORKFLOW_FIELDS),
    dependsOn: stringList(o, 'dependsOn'),
    steps: buildList(o, 'steps', pointer, buildStep),
    outputs: outputMap(o),
    parameters: buildList(o, 'parameters', pointer, buildParameter),
  };
  assignStrings(workflow, o, ['workflowId', 'summary', 'description']);
  if ('inputs' in o) workflow.inputs = o.inputs;
  const successActions = buildChain(o, 'successActions', pointer);
  const failureActions = buildChain(o, 'failureActions', pointer);
  if (successActions) workflow.successActions = successActions;
  if (failureActions) workflow.failureActions = failureActions;
  return workflow;
}

function buildStep(o: RawObject, pointer: string): Step {
  const step: Step = {
    pointer,
    extra: extraOf(o, STEP_FIELDS),
    parameters: buildList(o, 'parameters', pointer, buildParameter),
    successCriteria: buildList(o, 'successCriteria', pointer, buildCriterion),
    outputs: outputMap(o),
    dependsOn: stringList(o, 'dependsOn'),
  };
  assignStrings(step, o, ['stepId', 'description', 'operationId', 'operationPath', 'workflowId', 'channelPath', 'correlationId', 'action']);
  // A timeout is a whole number of milliseconds; any other value is left for validation to name.
  if (typeof o.timeout === 'number') step.timeout = o.timeout;
  const body = objectField(o, 'requestBody');
  if (body) step.requestBody = buildRequestBody(body, childPointer(pointer, 'requestBody'));
  const onSuccess = buildChain(o, 'onSuccess', pointer);
  const onFailure = buildChain(o, 'onFailure', pointer);
  if (onSuccess) step.onSuccess = onSuccess;
  if (onFailure) step.onFailure = onFailure;
  return step;
}
