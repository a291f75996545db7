/**
 * Arazzo 1.1 step dependencies: "Tools supporting only sequential execution MUST execute steps in
 * an order that satisfies both explicit (`dependsOn`) and implicit (output reference)
 * dependencies." In a workflow where a step declares `dependsOn`, the steps are put in such an
 * order before the workflow is planned: each step after the steps it depends on, otherwise in
 * document order (a stable topological sort). A workflow without `dependsOn` keeps its order;
 * validation has made a reference to a later step's outputs an error there (check-references.ts).
 * Validation has refused cycles (check-arazzo-1-1.ts), so every step finds its place.
 */
import type { ArazzoDocument, Step, Workflow } from '../arazzo/model.js';
import { readsAs11, type RunnerProfile } from '../arazzo/runner-profile.js';
import { someNode } from '../expressions/some-node.js';
import { otherWorkflowStep } from '../arazzo/workflow-references.js';

/** `$steps.<id>.outputs` anywhere in a string: an implicit dependency on step `<id>`. */
const OUTPUT_REFERENCE = /\$steps\.([^.{}\s#]+)\.outputs\b/g;

/** Reorders the steps of each workflow of `doc` that uses step dependsOn, when the profile orders by them and the document is Arazzo 1.1. */
export function orderStepsByDependencies(doc: ArazzoDocument, profile: RunnerProfile): void {
  if (!profile.ordersStepsByDependencies || !readsAs11(profile, doc.arazzo)) return;
  for (const workflow of doc.workflows) {
    if (workflow.steps.some((step) => step.dependsOn.length > 0)) workflow.steps = dependencyOrder(workflow);
  }
}

/** The workflow's steps, each after those it depends on (explicitly or by reading their outputs), else in document order. */
export function dependencyOrder(workflow: Workflow): Step[] {
  const ids = new Set(workflow.steps.flatMap((step) => (step.stepId === undefined ? [] : [step.stepId])));
  const needs = workflow.steps.map((step) => {
    const names = new Set(step.dependsOn.filter((name) => ids.has(name)));
    for (const name of outputReferences(step)) if (ids.has(name) && name !== step.stepId) names.add(name);
    return names;
  });
  const placed = new Set<string>();
  const order: Step[] = [];
  const left = workflow.steps.map((_, i) => i);
  while (left.length > 0) {
    // The first step (in document order) whose dependencies are all placed; a cycle (refused by validation) falls back to document order.
    const at = left.findIndex((i) => [...needs[i]!].every((name) => placed.has(name)));
    const i = left.splice(at === -1 ? 0 : at, 1)[0]!;
    const step = workflow.steps[i]!;
    order.push(step);
    if (step.stepId !== undefined) placed.add(step.stepId);
  }
  return order;
}

/**
 * Arazzo 1.1 in-flight steps: a receive step runs from its place while the workflow goes on, and
 * is joined before the first later step that depends on it (dependsOn, or reading its outputs), or
 * at the end; one that the next step depends on is not in flight. Sets StepPlan.inFlight.
 */
export function markInFlight(workflow: Workflow, steps: ReadonlyArray<{ inFlight?: { joinAt: number } }>, profile: RunnerProfile): void {
  if (profile.featureSet !== '1.1') return;
  workflow.steps.forEach((step, i) => {
    if (step.action !== 'receive' || step.stepId === undefined) return;
    const id = step.stepId;
    let joinAt = workflow.steps.length;
    for (let k = i + 1; k < workflow.steps.length; k++) {
      const later = workflow.steps[k]!;
      if (later.dependsOn.includes(id) || outputReferences(later).has(id)) {
        joinAt = k;
        break;
      }
    }
    if (joinAt > i + 1) (steps[i] as { inFlight?: { joinAt: number } }).inFlight = { joinAt };
  });
}

/**
 * The steps of other workflows a step depends on (Arazzo 1.1 step dependsOn), each as the key the
 * run records its success under (`<workflow key>/<stepId>`) and how a message names it. `keyOf`
 * gives a workflow's key among the run's (its id, or `<source>.<id>`).
 */
export function stepRequirements(step: Step, keyOf: (reference: string) => string | undefined): Array<{ key: string; label: string }> {
  const requires: Array<{ key: string; label: string }> = [];
  for (const name of step.dependsOn) {
    const named = otherWorkflowStep(name);
    if (!named) continue;
    const { source, workflowId, stepId } = named;
    const key = source === undefined ? (keyOf(workflowId) ?? workflowId) : (keyOf(`$sourceDescriptions.${source}.${workflowId}`) ?? `${source}.${workflowId}`);
    requires.push({ key: `${key}/${stepId}`, label: `step "${stepId}" of workflow "${workflowId}"${source === undefined ? '' : ` of source "${source}"`}` });
  }
  return requires;
}

/** The step ids whose outputs a step's strings read (parameters, body, criteria, outputs, actions). */
function outputReferences(step: Step): Set<string> {
  const found = new Set<string>();
  someNode({ parameters: step.parameters, requestBody: step.requestBody, successCriteria: step.successCriteria, outputs: step.outputs, onSuccess: step.onSuccess, onFailure: step.onFailure }, (node) => {
    if (typeof node === 'string') for (const match of node.matchAll(OUTPUT_REFERENCE)) found.add(match[1]!);
    return false;
  });
  return found;
}
