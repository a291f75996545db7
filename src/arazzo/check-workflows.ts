/** Walks workflows and steps, running the per-step and per-workflow checks in document order. */
import { checkChain } from './check-actions.js';
import { checkCriteria } from './check-criteria.js';
import { checkExpressionString, checkTemplate } from './check-expressions.js';
import { checkParameters } from './check-parameters.js';
import { gotosOf, indexSteps, type ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import type { ArazzoDocument, OutputValue, Step, Workflow } from './model.js';
import type { ParseMemo } from './parse-memo.js';
import { readsAs11, type RunnerProfile } from './runner-profile.js';
import { arrayField, childPointer, isObject } from './read-fields.js';

const OPERATION_FIELDS = ['operationId', 'operationPath', 'workflowId'] as const;
/** Arazzo 1.1 adds channelPath (an AsyncAPI channel). */
const OPERATION_FIELDS_1_1 = [...OPERATION_FIELDS, 'channelPath'] as const;

/**
 * Checks every workflow of the document: steps, parameters, bodies, criteria, outputs and action
 * chains; a construct `profile` refuses is a warning in its words.
 */
export function checkWorkflows(doc: ArazzoDocument, rawAt: (pointer: string) => unknown, parsed: ParseMemo, report: Report, profile: RunnerProfile): void {
  for (const workflow of doc.workflows) {
    const stepIndexes = indexSteps(workflow);
    const jumps = gotosOf(doc, workflow, stepIndexes);
    const scope: ExpressionScope = { doc, profile, parsed, workflow, stepIndexes, phase: 'request' };
    const callsOperations = workflow.steps.some((step) => step.workflowId === undefined);
    checkParameters(workflow.parameters, scope, callsOperations, report);
    if (!profile.runsDependencies) checkDependsOn(workflow, profile, report);
    // A step's pointer ends with its index in the workflow's raw `steps` list (build-model.ts), so
    // the raw step is looked up there (or, failing that, by its pointer from the root).
    const rawWorkflow = rawAt(workflow.pointer);
    const rawSteps = isObject(rawWorkflow) ? arrayField(rawWorkflow, 'steps') : undefined;
    workflow.steps.forEach((step, index) => {
      const rawStep = rawSteps?.[Number(step.pointer.slice(step.pointer.lastIndexOf('/') + 1))] ?? rawAt(step.pointer);
      checkStep(step, rawStep, { doc, profile, parsed, workflow, stepIndexes, jumps, stepIndex: index, phase: 'request' }, rawAt, report);
    });
    checkChain(workflow.successActions, 'success', { doc, profile, parsed, workflow, stepIndexes, phase: 'response' }, rawAt, report);
    checkChain(workflow.failureActions, 'failure', { doc, profile, parsed, workflow, stepIndexes, phase: 'response' }, rawAt, report);
    checkOutputs(workflow.outputs, childPointer(workflow.pointer, 'outputs'), { doc, profile, parsed, workflow, stepIndexes, phase: 'workflow' }, report);
  }
}

function checkStep(step: Step, rawStep: unknown, request: ExpressionScope, rawAt: (pointer: string) => unknown, report: Report): void {
  checkOperationFields(step, rawStep, request.profile, report, readsAs11(request.profile, request.doc.arazzo));
  const response: ExpressionScope = { ...request, phase: 'response' };
  checkParameters(step.parameters, request, step.workflowId === undefined, report);
  if (step.requestBody) {
    const body = step.requestBody;
    if (body.payload !== undefined) checkTemplate(body.payload, childPointer(body.pointer, 'payload'), request, report, false);
    for (const replacement of body.replacements) {
      if (replacement.value !== undefined) checkTemplate(replacement.value, childPointer(replacement.pointer, 'value'), request, report, true);
    }
    if (body.replacements.length > 0 && !request.profile.appliesReplacements) {
      report.warning('REPLACEMENTS_UNSUPPORTED', childPointer(body.pointer, 'replacements'), request.profile.findings.replacements(step.stepId ?? ''));
    }
  }
  checkCriteria(step.successCriteria, 'success', response, report);
  checkOutputs(step.outputs, childPointer(step.pointer, 'outputs'), response, report);
  checkChain(step.onSuccess, 'success', response, rawAt, report);
  checkChain(step.onFailure, 'failure', response, rawAt, report);
}

// The spec's rows: none of the three is an error; operationPath and nested workflows are warnings when the profile refuses them.
function checkOperationFields(step: Step, raw: unknown, profile: RunnerProfile, report: Report, arazzo11: boolean): void {
  const present: string[] = [];
  const fields = arazzo11 ? OPERATION_FIELDS_1_1 : OPERATION_FIELDS;
  if (isObject(raw)) for (let i = 0; i < fields.length; i++) if (raw[fields[i]!] !== undefined && raw[fields[i]!] !== null) present.push(fields[i]!);
  if (present.length === 1 && step.operationPath === undefined && step.workflowId === undefined) return;
  const label = `step "${step.stepId ?? ''}"`;
  if (present.length === 0) {
    report.error('STEP_WITHOUT_OPERATION', step.pointer, `${label} has none of ${fields.join(', ')}; say what the step calls`);
  } else if (present.length > 1) {
    report.error('STEP_OPERATION_CONFLICT', childPointer(step.pointer, present[1] ?? ''), `${label} has ${present.join(' and ')}; give exactly one`);
  }
  if (step.operationPath !== undefined && !profile.runsOperationPaths) {
    report.warning('OPERATION_PATH_UNSUPPORTED', childPointer(step.pointer, 'operationPath'), profile.findings.operationPath(label));
  }
  if (step.workflowId !== undefined && !profile.runsNestedWorkflows) {
    report.warning('NESTED_WORKFLOW_UNSUPPORTED', childPointer(step.pointer, 'workflowId'), profile.findings.nestedWorkflow(label, step.workflowId));
  }
}

// A profile that does not run dependencies runs only the selected workflow, so a workflow with dependencies would run without them.
function checkDependsOn(workflow: Workflow, profile: RunnerProfile, report: Report): void {
  if (workflow.dependsOn.length === 0) return;
  const names = workflow.dependsOn.map((id) => `"${id}"`).join(', ');
  report.warning('DEPENDS_ON_UNSUPPORTED', childPointer(workflow.pointer, 'dependsOn'), profile.findings.dependsOn(workflow.workflowId ?? '', names));
}

// A Selector Object output (Arazzo 1.1; structural validation rejects it in 1.0) is checked by check-selectors.ts.
function checkOutputs(outputs: Record<string, OutputValue>, pointer: string, scope: ExpressionScope, report: Report): void {
  const names = Object.keys(outputs);
  for (let i = 0; i < names.length; i++) {
    const value = outputs[names[i]!]!;
    if (typeof value === 'string') checkExpressionString(value, childPointer(pointer, names[i]!), scope, report);
    else if (scope.profile.featureSet === '1.1') checkTemplate(value, childPointer(pointer, names[i]!), scope, report, true);
  }
}

/** Checks the reusable components: parameter locations and actions (without a workflow to resolve goto or step references). */
export function checkComponents(doc: ArazzoDocument, rawAt: (pointer: string) => unknown, parsed: ParseMemo, report: Report, profile: RunnerProfile): void {
  const components = doc.components;
  if (!components) return;
  const shared: ExpressionScope = { doc, profile, parsed, phase: 'shared' };
  checkParameters(Object.values(components.parameters), shared, false, report);
  for (const action of Object.values(components.successActions)) checkChain([action], 'success', shared, rawAt, report);
  for (const action of Object.values(components.failureActions)) checkChain([action], 'failure', shared, rawAt, report);
}
