import type { ArazzoDocument, Parameter, Reference, Step, Workflow } from '../arazzo/model.js';
import { isReference } from '../arazzo/model.js';
import { DEFAULT_PROFILE, type RunnerProfile } from '../arazzo/runner-profile.js';
import { ToolError } from '../errors/tool-error.js';
import { compileTemplate, type TemplateOptions } from '../expressions/compile-template.js';
import type { ExpressionContext } from '../expressions/context.js';
import type { Template, TemplateWarning } from '../expressions/template-ast.js';
import { usableServerUrl } from '../openapi/servers.js';
import type { Operation, ParameterSpec } from '../openapi/types.js';
import { compileReplacements, type CompiledReplacements } from './apply-replacements.js';
import type { BoundSource } from './bind-sources.js';
import { operationAtPath } from './operation-at-path.js';
import type { WorkflowKeys } from './workflows-view.js';
import { compileOutputs, type CompiledOutputs } from './output-values.js';
import type { StepCriteria } from './plan-workflow.js';
import { resolveParameter } from './resolve-parameter.js';
import type { AsyncSource } from './async-sources.js';
import { compileAsyncStep, isAsyncStep, type AsyncProgram } from './compile-async-step.js';
import { StepPreparationError } from './step-preparation-error.js';

/** Everything a step needs at run time, prepared once before the first request (prepare-workflow.ts). */
export interface StepProgram extends StepCriteria {
  stepId: string;
  index: number;
  /** Absent for a step without an operation to call: a nested workflow step, or one the profile refuses (the machine fails it). */
  operation?: Operation;
  source?: BoundSource;
  /** Base URL requests of this step go to. */
  baseUrl?: string;
  /** `optional`: the operation declares the parameter and does not require it, so a value that resolves to nothing leaves it out. */
  parameters: Array<{ name: string; in?: string; value: Template; optional: boolean }>;
  /** `replacements` (v2 only) are applied to the rendered payload (apply-replacements.ts). */
  body?: { contentType?: string; payload: Template; replacements?: CompiledReplacements };
  outputs: CompiledOutputs;
  /** Whether an expression may read this step's request or response (`$steps.<id>.request…`); if not, they are not kept for later steps. */
  dataRead: boolean;
  /** A nested step (v2): the key of the workflow it calls (set when the run is prepared). */
  callKey?: string;
  /** A nested step (v2) whose called workflow declares inputs: checks the call's inputs against its schema (defaults filled in). */
  callInputs?: (inputs: Record<string, unknown>) => { inputs: Record<string, unknown> } | { reason: string };
  /** What `$sourceDescriptions.…` and `$components.…` resolve to; one object shared by every step of the workflow. */
  scope?: DocumentScope;
  /** Arazzo 1.1: an asynchronous step's message (send or receive on an AsyncAPI channel); such a step has no operation. */
  async?: AsyncProgram;
  /** Arazzo 1.1 `timeout`: the step's request (transport retries included) is aborted after this many milliseconds, and the step fails. */
  timeoutMs?: number;
  /** Inputs the workflow's schema declares and does not require (v2; optional-inputs.ts): a request part that is one of them, not given, is left out. */
  optionalInputs?: ReadonlySet<string>;
}

/**
 * The document-level part of an expression context: the same for every step, built once. An
 * Arazzo source's document (v2) also has `workflowKeys`: its `$workflows.<id>` read the run's
 * workflows under their keys (workflows-view.ts).
 */
export type DocumentScope = Required<Pick<ExpressionContext, 'sourceDescriptions' | 'components'>> & Pick<ExpressionContext, 'self'> & { workflowKeys?: WorkflowKeys };

export { StepPreparationError } from './step-preparation-error.js';

const QUALIFIED = /^\$sourceDescriptions\.([^.]+)\.(.+)$/;

/** Finds the operation a step calls among the bound sources (by operationId, else by operationPath). Throws StepPreparationError naming the step and source. */
export function findOperation(step: Step, sources: BoundSource[]): { operation: Operation; source: BoundSource } {
  if (step.operationId === undefined && step.operationPath !== undefined) {
    const found = operationAtPath(step.operationPath, sources);
    if ('problem' in found) throw new StepPreparationError('UNKNOWN_OPERATION', `step "${step.stepId}": ${found.problem}`);
    return found;
  }
  const id = step.operationId ?? '';
  const qualified = QUALIFIED.exec(id);
  if (qualified) {
    const source = sources.find((s) => s.name === qualified[1]);
    if (!source) throw new StepPreparationError('UNKNOWN_OPERATION', `step "${step.stepId}": no source description named "${qualified[1]}"`);
    const operation = source.description.operations.get(qualified[2]!);
    if (!operation) {
      throw new StepPreparationError('UNKNOWN_OPERATION', `step "${step.stepId}": operation "${qualified[2]}" is not in source "${source.name}" (${source.description.location})`);
    }
    return { operation, source };
  }
  const matches: Array<{ operation: Operation; source: BoundSource }> = [];
  for (let i = 0; i < sources.length; i++) {
    const operation = sources[i]!.description.operations.get(id);
    if (operation) matches.push({ operation, source: sources[i]! });
  }
  if (matches.length === 0) {
    const names = sources.map((s) => `"${s.name}"`).join(', ') || 'none';
    throw new StepPreparationError('UNKNOWN_OPERATION', `step "${step.stepId}": operationId "${id}" is not in any source description (sources: ${names})`);
  }
  if (matches.length > 1) {
    throw new StepPreparationError(
      'AMBIGUOUS_OPERATION',
      `step "${step.stepId}": operationId "${id}" exists in several sources (${matches.map((m) => m.source.name).join(', ')})`,
      `Qualify it, e.g. operationId: $sourceDescriptions.${matches[0]!.source.name}.${id}`,
    );
  }
  return matches[0]!;
}


/**
 * Compiles what a step sends and keeps into `program`: its operation found among the bound
 * sources, its base URL chosen, parameter and body templates and outputs parsed. A step without an
 * operationId is left as it is, unless the profile (v1 by default) runs its operationPath or its
 * nested workflow; a profile that applies replacements compiles the body's. Template warnings (a `$` string that stays literal) are
 * appended to `warnings`; `templates` say how values are read (Arazzo 1.1: selectors, template-options.ts). Throws StepPreparationError before any request is sent.
 */
export function compileStep(
  doc: ArazzoDocument,
  workflow: Workflow,
  step: Step,
  sources: BoundSource[],
  program: StepProgram,
  warnings: TemplateWarning[],
  profile: RunnerProfile = DEFAULT_PROFILE,
  templates: TemplateOptions = {},
  asyncSources: readonly AsyncSource[] = [],
): void {
  if (profile.runsNestedWorkflows && step.operationId === undefined && step.workflowId !== undefined) return compileCall(doc, workflow, step, program, warnings, templates);
  if (profile.featureSet === '1.1' && isAsyncStep(step, asyncSources)) return compileMessageStep(doc, workflow, step, asyncSources, program, warnings, profile, templates);
  if (step.operationId === undefined && (!profile.runsOperationPaths || step.operationPath === undefined)) return;
  const stepId = program.stepId;
  const { operation, source } = findOperation(step, sources);
  program.operation = operation;
  program.source = source;
  program.baseUrl = source.baseUrl ?? usableServerUrl(operation);
  if (!program.baseUrl) {
    throw new StepPreparationError(
      'NO_SERVER_URL',
      `step "${stepId}": source "${source.name}" (${source.description.location}) declares no absolute server URL`,
      `Register the API with its base URL: tool api add ${source.name} <base-url>`,
    );
  }
  // Workflow-level parameters apply to the steps whose operation declares them, and headers and
  // cookies to every step (any request can carry them: the official ExtendedParametersExample
  // sends both to operations that do not declare them); an undeclared one is optional. A query or
  // path parameter the operation lacks is not even evaluated. The step's own win (by name and location).
  const own = step.parameters.map((p) => resolveParameter(doc, p, stepId));
  const inherited = workflow.parameters
    .map((p) => resolveParameter(doc, p, stepId))
    .filter((w) => (declaredSpec(operation, w) !== undefined || w.in === 'header' || w.in === 'cookie' || (w.in === 'querystring' && !own.some(setsQuery))) && !own.some((p) => p.name === w.name && (p.in ?? '') === (w.in ?? '')));
  // The inherited parameters first, then the step's own; by index (this runs unoptimised for a
  // document's first steps, where each iterator step is an object).
  const local: TemplateWarning[] = [];
  for (let i = 0; i < inherited.length + own.length; i++) {
    const isInherited = i < inherited.length;
    const parameter = isInherited ? inherited[i]! : own[i - inherited.length]!;
    const spec = declaredSpec(operation, parameter);
    const optional = spec === undefined ? isInherited : !spec.required && spec.in !== 'path';
    program.parameters.push({ name: parameter.name ?? '', in: parameter.in, value: compileTemplate(parameter.value, local, templates), optional });
    for (let w = 0; w < local.length; w++) warnings.push({ ...local[w]!, pointer: `${parameter.pointer}/value${local[w]!.pointer}` });
    local.length = 0;
  }
  if (step.requestBody) {
    const local: TemplateWarning[] = [];
    program.body = { contentType: step.requestBody.contentType, payload: compileTemplate(step.requestBody.payload, local, templates) };
    for (const w of local) warnings.push({ ...w, pointer: `${step.requestBody.pointer}/payload${w.pointer}` });
    if (profile.appliesReplacements && step.requestBody.replacements.length > 0) {
      program.body.replacements = compileReplacements(step.requestBody, step.requestBody.contentType ?? operation.requestBody?.contentTypes[0], warnings, templates);
    }
  }
  program.outputs = compileOutputs(step.outputs, `${step.pointer}/outputs`, warnings, templates);
  if (profile.runsStepTimeouts && step.timeout !== undefined) program.timeoutMs = step.timeout;
}

/** An Arazzo 1.1 asynchronous step: its message (compile-async-step.ts), its body as an HTTP step's, its outputs. */
function compileMessageStep(doc: ArazzoDocument, workflow: Workflow, step: Step, asyncSources: readonly AsyncSource[], program: StepProgram, warnings: TemplateWarning[], profile: RunnerProfile, templates: TemplateOptions): void {
  const own = step.parameters.map((p) => resolveParameter(doc, p, program.stepId));
  // The workflow's header parameters reach its message steps too (the step's own of the same name win).
  const inherited = workflow.parameters.map((p) => resolveParameter(doc, p, program.stepId)).filter((w) => w.in === 'header' && !own.some((p) => p.name === w.name));
  program.async = compileAsyncStep(step, asyncSources, warnings, templates, DEFAULT_MESSAGE_TIMEOUT_MS, [...inherited, ...own]);
  if (step.requestBody) {
    const local: TemplateWarning[] = [];
    program.body = { contentType: program.async.contentType, payload: compileTemplate(step.requestBody.payload, local, templates) };
    for (const w of local) warnings.push({ ...w, pointer: `${step.requestBody.pointer}/payload${w.pointer}` });
    if (profile.appliesReplacements && step.requestBody.replacements.length > 0) program.body.replacements = compileReplacements(step.requestBody, program.async.contentType, warnings, templates);
  }
  program.outputs = compileOutputs(step.outputs, `${step.pointer}/outputs`, warnings, templates);
}

/** How long a receive waits for its message, and a send for the broker to take it, when the step gives no `timeout`. */
export const DEFAULT_MESSAGE_TIMEOUT_MS = 30_000;

/** A parameter that sets the query: a workflow's `querystring` does not reach a step that sets its own. */
function setsQuery(parameter: { in?: string | undefined }): boolean {
  return parameter.in === 'query' || parameter.in === 'querystring';
}

/**
 * A nested workflow step (v2): the called workflow's inputs are the step's parameters by `name`
 * (their `in` is ignored) over the caller's workflow-level parameters (optional: one that resolves
 * to nothing is left out); the step's outputs read `$outputs` of the call.
 */
function compileCall(doc: ArazzoDocument, workflow: Workflow, step: Step, program: StepProgram, warnings: TemplateWarning[], templates: TemplateOptions): void {
  const own = step.parameters.map((p) => resolveParameter(doc, p, program.stepId));
  const inherited = workflow.parameters.map((p) => resolveParameter(doc, p, program.stepId)).filter((w) => !own.some((p) => p.name === w.name));
  for (const parameter of [...inherited, ...own]) {
    const local: TemplateWarning[] = [];
    program.parameters.push({ name: parameter.name ?? '', value: compileTemplate(parameter.value, local, templates), optional: inherited.includes(parameter) });
    for (const w of local) warnings.push({ ...w, pointer: `${parameter.pointer}/value${w.pointer}` });
  }
  program.outputs = compileOutputs(step.outputs, `${step.pointer}/outputs`, warnings, templates);
}

/**
 * `$sourceDescriptions.<name>.url` (the description's absolute path or URL), `.type`, `.name`
 * and `.<operationId>` (the operation's id, when the source has it); `$components.parameters.<name>`
 * (the parameter object as written) and `$components.inputs.<name>`. Built once per workflow run.
 * With `operationsFirst` (Arazzo 1.1, "Source Description Expression Resolution") an operationId
 * named like a field (`url`) wins over the field; otherwise the field wins.
 */
export function documentScope(doc: ArazzoDocument, sources: BoundSource[], operationsFirst = false): DocumentScope {
  const sourceDescriptions: DocumentScope['sourceDescriptions'] = {};
  for (const source of doc.sourceDescriptions) {
    if (source.name === undefined) continue;
    const bound = sources.find((s) => s.name === source.name);
    const fields: Record<string, unknown> = {};
    const operations = () => {
      for (const operationId of bound?.description.operations.keys() ?? []) define(fields, operationId, operationId);
    };
    if (!operationsFirst) operations();
    define(fields, 'name', source.name);
    define(fields, 'url', bound?.description.location ?? source.url);
    define(fields, 'type', source.type ?? 'openapi');
    if (operationsFirst) operations();
    define(sourceDescriptions, source.name, fields);
  }
  const parameters: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(doc.components?.parameters ?? {})) {
    const plain: Record<string, unknown> = {};
    if (parameter.name !== undefined) plain.name = parameter.name;
    if (parameter.in !== undefined) plain.in = parameter.in;
    if (parameter.value !== undefined) plain.value = parameter.value;
    define(parameters, name, plain);
  }
  return { sourceDescriptions, components: { parameters, inputs: doc.components?.inputs ?? {} } };
}

/** Sets an own data property: a name such as "__proto__" must stay data. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The operation's parameter a step parameter fills: same name (any case for a header) and, when given, same `in`. */
function declaredSpec(operation: Operation, parameter: Parameter): ParameterSpec | undefined {
  const name = parameter.name ?? '';
  let lower: string | undefined;
  for (let i = 0; i < operation.parameters.length; i++) {
    const spec = operation.parameters[i]!;
    if (parameter.in !== undefined && spec.in !== parameter.in) continue;
    if (spec.in === 'header' ? spec.name.toLowerCase() === (lower ??= name.toLowerCase()) : spec.name === name) return spec;
  }
  return undefined;
}

const STEP_DATA = /\$steps\.([A-Za-z0-9_-]+)\.(?:request|response)\b/g;

/** The step ids each document's strings name (stepsWithDataRead), found once per document: v2 prepares several workflows of one document. */
const namedByDocument = new WeakMap<ArazzoDocument, ReadonlySet<string>>();

/**
 * Which steps' request and response some expression may read later. Generous on purpose: any
 * string anywhere in the document that looks like `$steps.<id>.request…` or `…response…` counts,
 * and every step counts when a step id has characters such a reference could not be matched by.
 * With the document's `text`, the text is searched instead of the values when it has no backslash:
 * every string value is then a piece of the text as written (YAML and JSON change a string's
 * characters only through backslash escapes; folding joins lines with a space or a line break,
 * which a reference cannot span), so the text names every step the values name, and maybe more
 * (in keys and comments). One regular expression over the text costs a fraction of walking every
 * value of a large document.
 */
export function stepsWithDataRead(doc: ArazzoDocument, workflow: Workflow, text?: string): (stepId: string) => boolean {
  if (workflow.steps.some((step) => !/^[A-Za-z0-9_-]*$/.test(step.stepId ?? ''))) return () => true;
  let read = namedByDocument.get(doc);
  if (read === undefined) {
    read = text !== undefined && !text.includes('\\') ? namedIn(text) : namedInValues(doc);
    namedByDocument.set(doc, read);
  }
  const named = read;
  return (stepId) => named.has(stepId);
}

/** The step ids `text` names as `$steps.<id>.request…` or `$steps.<id>.response…`. */
function namedIn(text: string): Set<string> {
  const read = new Set<string>();
  if (text.includes('$steps.')) for (const match of text.matchAll(STEP_DATA)) read.add(match[1]!);
  return read;
}

/** The step ids the document's string values name, walking every value. */
function namedInValues(doc: ArazzoDocument): Set<string> {
  const read = new Set<string>();
  // Each object once: a subtree that YAML aliases share is walked once, not once per alias.
  const seen = new Set<object>();
  // Iterative, and without a list of values per object: this walks the whole document.
  const pending: unknown[] = [doc];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('$steps.')) for (const match of value.matchAll(STEP_DATA)) read.add(match[1]!);
    } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) pending.push(value[i]);
      } else {
        const keys = Object.keys(value);
        for (let i = 0; i < keys.length; i++) pending.push((value as Record<string, unknown>)[keys[i]!]);
      }
    }
  }
  return read;
}
