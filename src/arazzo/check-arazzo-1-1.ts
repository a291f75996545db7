/**
 * Arazzo 1.1's own rules, for a 1.1 document: a `successCriteria` that is given holds a criterion,
 * a step `timeout` is a positive whole number of milliseconds, an action's `parameters` go to the
 * workflow it runs and have no `in`, one `querystring` per request and never beside `query`
 * parameters, a step's `dependsOn` names steps that exist (its own workflow's, another's, an
 * Arazzo source's) without a cycle, and an asynchronous step's `action`, `correlationId` and
 * target agree (their AsyncAPI descriptions are checked by src/plan/check-async-steps.ts).
 */
import { otherWorkflowStep } from './workflow-references.js';
import type { Report } from './finding.js';
import { isReference, type Action, type ActionOrReference, type ArazzoDocument, type Parameter, type Reference, type Step, type Workflow } from './model.js';
import { childPointer, isObject } from './read-fields.js';
import { didYouMean } from './suggest.js';

/** Checks the 1.1 rules of `doc` (a 1.1.x document read by the 1.1 profile). `rawAt` reads the raw value at a pointer. */
export function checkArazzo11(doc: ArazzoDocument, rawAt: (pointer: string) => unknown, report: Report): void {
  for (const workflow of doc.workflows) {
    // Each step's raw value from its workflow's raw `steps` list (by the index its pointer ends with): one pointer resolved per workflow, not two per step.
    const rawWorkflow = rawAt(workflow.pointer);
    const rawSteps = isObject(rawWorkflow) && Array.isArray(rawWorkflow.steps) ? (rawWorkflow.steps as unknown[]) : [];
    for (const step of workflow.steps) {
      const rawStep = rawSteps[Number(step.pointer.slice(step.pointer.lastIndexOf('/') + 1))];
      checkStep(doc, workflow, step, isObject(rawStep) ? rawStep : {}, report);
    }
    checkActions(workflow.successActions, report);
    checkActions(workflow.failureActions, report);
    checkStepDependencies(doc, workflow, report);
  }
  const components = doc.components;
  if (components) {
    for (const action of [...Object.values(components.successActions), ...Object.values(components.failureActions)]) checkActionParameters(action, report);
  }
}

function checkStep(doc: ArazzoDocument, workflow: Workflow, step: Step, raw: Record<string, unknown>, report: Report): void {
  const label = `step "${step.stepId ?? ''}"`;
  const criteria = raw.successCriteria;
  if (Array.isArray(criteria) && criteria.length === 0) {
    report.error('EMPTY_SUCCESS_CRITERIA', childPointer(step.pointer, 'successCriteria'), `${label} has an empty successCriteria; Arazzo 1.1 requires at least one criterion when the field is given: add one, or remove the field (a 2xx status then decides)`);
  }
  const timeout = raw.timeout;
  if (timeout !== undefined && timeout !== null && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0 || timeout > MAX_TIMEOUT_MS)) {
    report.error('INVALID_TIMEOUT', childPointer(step.pointer, 'timeout'), `${label} has timeout ${JSON.stringify(timeout)}; it is a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (24 hours)`);
  }
  checkMessageStep(doc, step, label, report);
  checkQuerystring(doc, workflow, step, label, report);
  checkActions(step.onSuccess, report);
  checkActions(step.onFailure, report);
}

/**
 * An asynchronous step (AsyncAPI): `action` is send or receive and names an operation
 * (operationId, or the 1.1 text's operationPath form) or a channel (channelPath) of an AsyncAPI
 * source; `correlationId` is a receive's; a step that runs a workflow has none of these.
 */
function checkMessageStep(doc: ArazzoDocument, step: Step, label: string, report: Report): void {
  const asyncSources = doc.sourceDescriptions.filter((source) => source.type === 'asyncapi').flatMap((source) => (source.name === undefined ? [] : [source.name]));
  const namesAsync = [step.operationId, step.operationPath, step.channelPath].some((reference) => reference !== undefined && asyncSources.some((name) => reference.includes(`$sourceDescriptions.${name}.`)));
  if (step.action === undefined) {
    if (step.channelPath !== undefined || namesAsync) report.error('INVALID_ASYNC_STEP', step.pointer, `${label} names an AsyncAPI operation or channel but has no action; give action: send or action: receive`);
    if (step.correlationId !== undefined) report.error('INVALID_ASYNC_STEP', childPointer(step.pointer, 'correlationId'), `${label} has a correlationId but no action: receive; correlationId belongs to AsyncAPI receive steps`);
    return;
  }
  if (step.action !== 'send' && step.action !== 'receive') {
    report.error('INVALID_ASYNC_STEP', childPointer(step.pointer, 'action'), `${label} has action "${step.action}"; use send or receive`);
  } else if (step.workflowId !== undefined) {
    report.error('INVALID_ASYNC_STEP', childPointer(step.pointer, 'action'), `${label} runs workflow "${step.workflowId}" and has action: ${step.action}; action belongs to steps of AsyncAPI operations`);
  } else if (!namesAsync && step.channelPath === undefined) {
    report.error('INVALID_ASYNC_STEP', childPointer(step.pointer, 'action'), `${label} has action: ${step.action} but names no operation or channel of an AsyncAPI source (${asyncSources.length === 0 ? 'the document has none' : `its AsyncAPI sources: ${asyncSources.join(', ')}`}); write operationId: $sourceDescriptions.<source>.<operationId>`);
  }
  if (step.correlationId !== undefined && step.action === 'send') {
    report.error('INVALID_ASYNC_STEP', childPointer(step.pointer, 'correlationId'), `${label} is a send step with a correlationId; correlationId says which reply a receive step waits for: put the id in the message (a header parameter or the payload)`);
  }
}

/** 24 hours: a longer step is a mistake in the number. */
const MAX_TIMEOUT_MS = 86_400_000;

/** One querystring per request, and none beside query parameters (the step's own, or the workflow's it inherits). */
function checkQuerystring(doc: ArazzoDocument, workflow: Workflow, step: Step, label: string, report: Report): void {
  // Most steps have no querystring, their own or their workflow's: nothing to resolve.
  const isQuerystring = (entry: Parameter | Reference) => resolved(doc, entry)?.in === 'querystring';
  if (!step.parameters.some(isQuerystring) && !workflow.parameters.some(isQuerystring)) return;
  const own = step.parameters.map((entry) => resolved(doc, entry)).filter((p): p is Parameter => p !== undefined);
  const querystrings = own.filter((p) => p.in === 'querystring');
  const ownQuery = own.some((p) => p.in === 'query');
  const inherited = querystrings.length === 0 && !ownQuery ? workflow.parameters.map((entry) => resolved(doc, entry)).filter((p): p is Parameter => p?.in === 'querystring') : [];
  const all = [...querystrings, ...inherited];
  if (all.length > 1) {
    report.error('QUERYSTRING_CONFLICT', childPointer(all[1]!.pointer, 'in'), `${label} has ${all.length} querystring parameters; a request has one query string: merge them into one value`);
  } else if (all.length === 1 && ownQuery) {
    report.error('QUERYSTRING_CONFLICT', childPointer(all[0]!.pointer, 'in'), `${label} has a querystring parameter and query parameters; the querystring is the whole query string: put the query parameters in it, or use query parameters only`);
  }
}

function resolved(doc: ArazzoDocument, entry: Parameter | Reference): Parameter | undefined {
  if (!isReference(entry)) return entry;
  const name = /^\$components\.parameters\.(.+)$/.exec(entry.reference)?.[1];
  const parameters = doc.components?.parameters;
  return name !== undefined && parameters && Object.hasOwn(parameters, name) ? parameters[name] : undefined;
}

function checkActions(chain: ActionOrReference[] | undefined, report: Report): void {
  for (const entry of chain ?? []) if (!isReference(entry)) checkActionParameters(entry, report);
}

/** An action's parameters are inputs of the workflow a goto or retry runs: no `in`, and a `workflowId` to go to. */
function checkActionParameters(action: Action, report: Report): void {
  if (action.parameters.length === 0) return;
  const label = `action "${action.name ?? ''}"`;
  if (action.workflowId === undefined || (action.type !== 'goto' && action.type !== 'retry')) {
    report.error('ACTION_PARAMETERS_WITHOUT_WORKFLOW', childPointer(action.pointer, 'parameters'), `${label} has parameters but runs no workflow; parameters are the inputs of the workflow a goto or retry names with workflowId`);
    return;
  }
  for (const parameter of action.parameters) {
    if (!isReference(parameter) && parameter.in !== undefined) {
      report.error('ACTION_PARAMETER_IN', childPointer(parameter.pointer, 'in'), `${label}: parameter "${parameter.name ?? ''}" has in: "${parameter.in}"; an action's parameters are inputs of workflow "${action.workflowId}" and take no "in": remove it`);
    }
  }
}

/** A step's dependsOn names steps of its workflow (other forms are not run yet), not itself, and without a cycle. */
function checkStepDependencies(doc: ArazzoDocument, workflow: Workflow, report: Report): void {
  const ids = workflow.steps.flatMap((step) => (step.stepId === undefined ? [] : [step.stepId]));
  const edges = new Map<string, string[]>();
  for (const step of workflow.steps) {
    const names: string[] = [];
    step.dependsOn.forEach((name, i) => {
      const at = childPointer(childPointer(step.pointer, 'dependsOn'), String(i));
      if (name.startsWith('$workflows.') || name.startsWith('$sourceDescriptions.')) {
        checkOtherWorkflowStep(doc, step, name, at, report);
      } else if (name === step.stepId) {
        report.error('STEP_DEPENDS_ON_CYCLE', at, `step "${name}" depends on itself; remove it from its dependsOn`);
      } else if (!ids.includes(name)) {
        report.error('UNKNOWN_STEP', at, `step "${step.stepId ?? ''}" depends on step "${name}", which workflow "${workflow.workflowId ?? ''}" does not have${didYouMean(name, ids)}`);
      } else names.push(name);
    });
    if (step.stepId !== undefined) edges.set(step.stepId, names);
  }
  const cycle = findCycle(edges);
  if (cycle) {
    const first = workflow.steps.find((step) => step.stepId === cycle[0]);
    report.error('STEP_DEPENDS_ON_CYCLE', childPointer(first?.pointer ?? workflow.pointer, 'dependsOn'), `the steps' dependsOn form a cycle: ${cycle.map((id) => `"${id}"`).join(' -> ')}; no step of it could run first`);
  }
}

/** A dependency on a step of another workflow: `$workflows.<id>.steps.<stepId>` names one the document has; `$sourceDescriptions.<source>.<id>.steps.<stepId>` an Arazzo source it declares. */
function checkOtherWorkflowStep(doc: ArazzoDocument, step: Step, name: string, at: string, report: Report): void {
  const label = `step "${step.stepId ?? ''}"`;
  const named = otherWorkflowStep(name);
  if (!named) {
    report.error('INVALID_REFERENCE', at, `${label} depends on ${name}; write $workflows.<workflowId>.steps.<stepId> or $sourceDescriptions.<source>.<workflowId>.steps.<stepId>`);
  } else if (named.source !== undefined) {
    const source = doc.sourceDescriptions.find((s) => s.name === named.source);
    if (source?.type !== 'arazzo') report.error('UNKNOWN_SOURCE', at, `${label} depends on ${name}, but ${source ? `source "${named.source}" is not of type arazzo` : `the document has no source "${named.source}"`}`);
  } else {
    const ids = doc.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
    const target = doc.workflows.find((w) => w.workflowId === named.workflowId);
    if (!target) report.error('UNKNOWN_WORKFLOW', at, `${label} depends on ${name}, but the document has no workflow "${named.workflowId}"${didYouMean(named.workflowId, ids)}`);
    else if (!target.steps.some((s) => s.stepId === named.stepId)) {
      const steps = target.steps.flatMap((s) => (s.stepId === undefined ? [] : [s.stepId]));
      report.error('UNKNOWN_STEP', at, `${label} depends on ${name}, but workflow "${named.workflowId}" has no step "${named.stepId}"${didYouMean(named.stepId, steps)}`);
    }
  }
}

/** A cycle of the graph (as its ids, the first repeated at the end), or undefined; iterative, so a long chain does not overflow the stack. */
export function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  for (const start of edges.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const next: number[] = [0];
    state.set(start, 'open');
    while (path.length > 0) {
      const node = path[path.length - 1]!;
      const targets = edges.get(node) ?? [];
      const i = next[next.length - 1]!;
      if (i >= targets.length) {
        state.set(node, 'done');
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const target = targets[i]!;
      const seen = state.get(target);
      if (seen === 'open') return [...path.slice(path.indexOf(target)), target];
      if (seen === undefined) {
        state.set(target, 'open');
        path.push(target);
        next.push(0);
      }
    }
  }
  return undefined;
}
