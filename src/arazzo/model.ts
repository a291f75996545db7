/**
 * The typed model of an Arazzo 1.0.1 document. Every object keeps the JSON pointer it was read
 * from (`pointer`), so findings and runtime errors can name file:line:col through the source map.
 * Unknown fields and `x-` extensions are kept in `extra`.
 */

/** Line and column, both 1-based, of a node in the source file. */
export interface Position {
  line: number;
  col: number;
}

export type Extra = Record<string, unknown>;

export interface Node {
  /** RFC 6901 pointer of this object in the document, e.g. `/workflows/0/steps/2`. */
  pointer: string;
  /** Unknown fields and `x-` extensions, as written. */
  extra: Extra;
}

export interface ArazzoDocument extends Node {
  arazzo?: string;
  /** Arazzo 1.1 `$self`: the document's URI-reference, its identity and base URI. */
  self?: string;
  info?: Info;
  sourceDescriptions: SourceDescription[];
  workflows: Workflow[];
  components?: Components;
}

export interface Info extends Node {
  title?: string;
  summary?: string;
  description?: string;
  version?: string;
}

export interface SourceDescription extends Node {
  name?: string;
  url?: string;
  type?: string;
  /** `x-tool-api`: name of a configured API to bind to. */
  api?: string;
}

export interface Components extends Node {
  inputs: Record<string, unknown>;
  parameters: Record<string, Parameter>;
  successActions: Record<string, Action>;
  failureActions: Record<string, Action>;
}

export interface Workflow extends Node {
  workflowId?: string;
  summary?: string;
  description?: string;
  inputs?: unknown;
  dependsOn: string[];
  steps: Step[];
  /** undefined when the field is absent (matters for the presence rules). */
  successActions?: ActionOrReference[];
  failureActions?: ActionOrReference[];
  /** Expressions; in Arazzo 1.1 also Selector Objects (mappings, checked by validation). */
  outputs: Record<string, OutputValue>;
  parameters: Array<Parameter | Reference>;
}

/** An output's value: an expression, or (Arazzo 1.1) a Selector Object as written. */
export type OutputValue = string | Record<string, unknown>;

export interface Step extends Node {
  stepId?: string;
  description?: string;
  operationId?: string;
  operationPath?: string;
  workflowId?: string;
  parameters: Array<Parameter | Reference>;
  requestBody?: RequestBody;
  successCriteria: Criterion[];
  /** undefined when absent; [] is an explicit opt-out. */
  onSuccess?: ActionOrReference[];
  onFailure?: ActionOrReference[];
  outputs: Record<string, OutputValue>;
  /** Arazzo 1.1: a `channelPath` (an AsyncAPI channel by source expression and JSON pointer). */
  channelPath?: string;
  /** Arazzo 1.1: milliseconds the step may take before it is aborted and fails. */
  timeout?: number;
  /** Arazzo 1.1: an AsyncAPI receive step's correlation id (an expression or a literal). */
  correlationId?: string;
  /** Arazzo 1.1: `send` or `receive`, for an AsyncAPI step. */
  action?: string;
  /** Arazzo 1.1: steps that must complete before this one (stepIds, `$workflows.<id>.steps.<id>`, `$sourceDescriptions.<src>.<wf>.steps.<id>`). */
  dependsOn: string[];
}

export interface Parameter extends Node {
  name?: string;
  in?: string;
  value?: unknown;
}

export interface RequestBody extends Node {
  contentType?: string;
  payload?: unknown;
  /** `targetSelectorType` (Arazzo 1.1): `jsonpointer`, `jsonpath` or `xpath`, flattened from an expression type object (its version in `targetSelectorVersion`). */
  replacements: Array<{ target?: string; value?: unknown; pointer: string; targetSelectorType?: string; targetSelectorVersion?: string }>;
}

export interface Criterion extends Node {
  condition?: string;
  /** `simple` when absent. A criterion expression type object `{type, version}` is flattened to its type. */
  type: string;
  /** The `version` of a `{type, version}` criterion expression type (`draft-goessner-dispatch-jsonpath-00`, `xpath-30`...). */
  version?: string;
  context?: string;
}

export type ActionType = 'end' | 'retry' | 'goto' | string;

export interface Action extends Node {
  name?: string;
  type?: ActionType;
  criteria: Criterion[];
  retryAfter?: number;
  retryLimit?: number;
  stepId?: string;
  workflowId?: string;
  /** Arazzo 1.1: inputs passed to the `workflowId` target (no `in`). */
  parameters: Array<Parameter | Reference>;
}

export interface Reference extends Node {
  reference: string;
  /** Arazzo allows a `value` override on parameter references. */
  value?: unknown;
}

export type ActionOrReference = Action | Reference;

export function isReference(x: object): x is Reference {
  return typeof (x as Reference).reference === 'string';
}

/** A loaded document: the model, the raw value, and where each pointer sits in the file. */
export interface LoadedDocument {
  /** Path as the user gave it (used in messages). */
  file: string;
  /** Absolute path, used to resolve relative source URLs. */
  absolutePath: string;
  model: ArazzoDocument;
  raw: unknown;
  /** The text the document was read from (absent for a document built some other way). */
  text?: string;
  /** Position of the node at `pointer`, or of its nearest ancestor that has one. */
  locate(pointer: string): Position | undefined;
}
