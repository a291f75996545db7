/**
 * The shape of each Arazzo object, as far as structural validation needs it: which fields exist,
 * their JSON type, which are required, and which child objects to descend into.
 */

export type FieldType = 'string' | 'number' | 'array' | 'object' | 'any' | 'criterionType';

/** How to descend into a field: every item of an array, every value of a map, or the object itself. */
export type Descend = { each: ShapeName } | { values: ShapeName } | { object: ShapeName } | { stringValues: true } | { stringItems: true } | { outputValues: true };

export interface Shape {
  fields: Record<string, FieldType>;
  required: readonly string[];
  children?: Record<string, Descend>;
}

export type ShapeName =
  | 'document'
  | 'info'
  | 'source'
  | 'components'
  | 'workflow'
  | 'step'
  | 'parameter'
  | 'requestBody'
  | 'replacement'
  | 'criterion'
  | 'action'
  | 'selector';

// retryAfter/retryLimit are typed 'any' here: their own check reports a wrong value once, with the rule.
const ACTION_FIELDS: Record<string, FieldType> = {
  name: 'string',
  type: 'string',
  criteria: 'array',
  retryAfter: 'any',
  retryLimit: 'any',
  stepId: 'string',
  workflowId: 'string',
};

export const SHAPES: Record<ShapeName, Shape> = {
  document: {
    fields: { arazzo: 'any', info: 'object', sourceDescriptions: 'array', workflows: 'array', components: 'object' },
    required: ['arazzo', 'info', 'sourceDescriptions'],
    children: {
      info: { object: 'info' },
      sourceDescriptions: { each: 'source' },
      workflows: { each: 'workflow' },
      components: { object: 'components' },
    },
  },
  info: { fields: { title: 'string', summary: 'string', description: 'string', version: 'string' }, required: ['title', 'version'] },
  source: { fields: { name: 'string', url: 'string', type: 'string', 'x-tool-api': 'string' }, required: ['name', 'url'] },
  components: {
    fields: { inputs: 'object', parameters: 'object', successActions: 'object', failureActions: 'object' },
    required: [],
    children: { parameters: { values: 'parameter' }, successActions: { values: 'action' }, failureActions: { values: 'action' } },
  },
  workflow: {
    fields: {
      workflowId: 'string',
      summary: 'string',
      description: 'string',
      inputs: 'object',
      dependsOn: 'array',
      steps: 'array',
      successActions: 'array',
      failureActions: 'array',
      outputs: 'object',
      parameters: 'array',
    },
    required: ['workflowId', 'steps'],
    children: {
      dependsOn: { stringItems: true },
      steps: { each: 'step' },
      successActions: { each: 'action' },
      failureActions: { each: 'action' },
      outputs: { stringValues: true },
      parameters: { each: 'parameter' },
    },
  },
  step: {
    fields: {
      stepId: 'string',
      description: 'string',
      operationId: 'string',
      operationPath: 'string',
      workflowId: 'string',
      parameters: 'array',
      requestBody: 'object',
      successCriteria: 'array',
      onSuccess: 'array',
      onFailure: 'array',
      outputs: 'object',
    },
    required: ['stepId'],
    children: {
      parameters: { each: 'parameter' },
      requestBody: { object: 'requestBody' },
      successCriteria: { each: 'criterion' },
      onSuccess: { each: 'action' },
      onFailure: { each: 'action' },
      outputs: { stringValues: true },
    },
  },
  parameter: { fields: { name: 'string', in: 'string', value: 'any' }, required: ['name', 'value'] },
  requestBody: {
    fields: { contentType: 'string', payload: 'any', replacements: 'array' },
    required: [],
    children: { replacements: { each: 'replacement' } },
  },
  replacement: { fields: { target: 'string', value: 'any' }, required: ['target', 'value'] },
  criterion: { fields: { condition: 'string', type: 'criterionType', context: 'string' }, required: ['condition'] },
  action: { fields: ACTION_FIELDS, required: ['name', 'type'], children: { criteria: { each: 'criterion' } } },
  // Arazzo 1.0 has no selector objects: SHAPES_1_1 gives its shape.
  selector: { fields: {}, required: [] },
};

/**
 * Arazzo 1.1's shapes: 1.0's with `$self`, the step's `timeout`, `dependsOn`, `channelPath`,
 * `correlationId` and `action`, an action's `parameters`, a replacement's `targetSelectorType`,
 * and outputs that are an expression or a Selector Object.
 */
export const SHAPES_1_1: Record<ShapeName, Shape> = {
  ...SHAPES,
  document: { ...SHAPES.document, fields: { ...SHAPES.document.fields, $self: 'string' } },
  workflow: { ...SHAPES.workflow, children: { ...SHAPES.workflow.children, outputs: { outputValues: true } } },
  step: {
    fields: { ...SHAPES.step.fields, channelPath: 'string', timeout: 'any', correlationId: 'string', action: 'string', dependsOn: 'array' },
    required: SHAPES.step.required,
    children: { ...SHAPES.step.children, outputs: { outputValues: true }, dependsOn: { stringItems: true } },
  },
  replacement: { fields: { ...SHAPES.replacement.fields, targetSelectorType: 'criterionType' }, required: SHAPES.replacement.required },
  action: { fields: { ...ACTION_FIELDS, parameters: 'array' }, required: SHAPES.action.required, children: { criteria: { each: 'criterion' }, parameters: { each: 'parameter' } } },
  selector: { fields: { context: 'string', selector: 'string', type: 'criterionType' }, required: ['context', 'selector', 'type'] },
};

/** Fields of a `reference` object (a parameter or action given by reference). */
export const REFERENCE_FIELDS: Record<string, FieldType> = { reference: 'string', value: 'any' };
