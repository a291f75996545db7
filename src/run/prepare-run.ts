/**
 * A v2 run's workflows, prepared once before the first request: the selected workflow, its
 * dependencies (dependsOn, transitively, in the order they run), and every workflow a nested step,
 * a goto or a retry can reach from them. Each is planned and compiled once, however often it runs.
 */
import type { WorkflowPlan } from '../../machines/types.js';
import type { ArazzoDocument, LoadedDocument, Workflow } from '../arazzo/model.js';
import { ToolError } from '../errors/tool-error.js';
import type { TemplateWarning } from '../expressions/template-ast.js';
import type { BoundSource } from './bind-sources.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { workflowKey } from './plan-workflow.js';
import { prepareWorkflow, type PreparedWorkflow } from './prepare-workflow.js';

export interface PreparedRun {
  /** The selected workflow's key. */
  entry: string;
  /** Keys of the workflows to run before it, in order (each once). */
  dependencies: string[];
  /** Every workflow the run can reach, by key. */
  workflows: Map<string, PreparedWorkflow>;
}

/**
 * Prepares `entry`, its dependencies and every workflow they can reach. Throws ToolError
 * DEPENDS_ON_CYCLE for a dependency cycle or unknown id (validation reports them first), and the
 * preparation errors of prepareWorkflow.
 */
export function prepareRun(doc: ArazzoDocument, entry: Workflow, sources: BoundSource[], warnings: TemplateWarning[], criteria: CriteriaOptions): PreparedRun {
  const entryKey = entry.workflowId ?? '';
  const dependencies = dependencyOrder(doc, entry);
  const workflows = new Map<string, PreparedWorkflow>();
  const queue = [entryKey, ...dependencies];
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (workflows.has(key)) continue;
    const workflow = doc.workflows.find((w) => w.workflowId === key);
    if (!workflow) continue;
    const prepared = prepareWorkflow(doc, workflow, sources, warnings, criteria);
    prepared.plan.key = key;
    prepared.plan.v2 = true;
    workflows.set(key, prepared);
    queue.push(...calledBy(prepared.plan));
  }
  // A nested step may end up running any workflow a transfer inside its call can reach.
  for (const { plan } of workflows.values()) {
    for (const step of plan.steps) if (step.call) step.call.transfers = [...transferClosure(step.call.workflow, workflows)];
  }
  return { entry: entryKey, dependencies, workflows };
}

/** The workflows a plan can start: nested calls, gotos to workflows, retries that run a workflow. */
export function calledBy(plan: WorkflowPlan): string[] {
  const keys: string[] = [];
  for (const step of plan.steps) {
    if (step.call) keys.push(step.call.workflow);
    for (const action of [...step.onSuccess, ...step.onFailure]) if (action.workflow !== undefined && !action.unsupported) keys.push(action.workflow);
  }
  return keys;
}

/** The workflows a run of `key` can transfer to, directly or through the workflows it transfers to. */
export function transferClosure(key: string, workflows: ReadonlyMap<string, { plan: WorkflowPlan }>): Set<string> {
  const seen = new Set<string>();
  const visit = (from: string) => {
    for (const step of workflows.get(from)?.plan.steps ?? []) {
      for (const action of [...step.onSuccess, ...step.onFailure]) {
        if (action.type !== 'goto' || action.workflow === undefined || action.unsupported || seen.has(action.workflow)) continue;
        seen.add(action.workflow);
        visit(action.workflow);
      }
    }
  };
  visit(key);
  return seen;
}

/**
 * The selected workflow's dependencies, transitively, in topological order (a dependency before
 * what depends on it; declaration order otherwise), without the workflow itself.
 */
export function dependencyOrder(doc: ArazzoDocument, entry: Workflow): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (workflow: Workflow, path: string[]) => {
    const id = workflow.workflowId ?? '';
    state.set(id, 'visiting');
    for (const reference of workflow.dependsOn) {
      const key = workflowKey(doc, reference);
      const target = key === undefined ? undefined : doc.workflows.find((w) => w.workflowId === key);
      if (key === undefined || !target) {
        throw new ToolError('DEPENDS_ON_CYCLE', `workflow "${id}" depends on "${reference}", which is not a workflow of this document (workflows of other Arazzo documents are not run yet by this version)`);
      }
      if (state.get(key) === 'visiting') throw new ToolError('DEPENDS_ON_CYCLE', `dependsOn forms a cycle: ${[...path, id, key].join(' → ')}`);
      if (state.get(key) !== 'done') visit(target, [...path, id]);
    }
    state.set(id, 'done');
    order.push(id);
  };
  visit(entry, []);
  return order.slice(0, -1);
}

/**
 * Gives each nested step the called workflow's inputs schema, compiled once per workflow (Ajv is
 * loaded only when a called workflow declares one): a call whose inputs do not satisfy it fails
 * the step before the call, and defaults are filled in.
 */
export async function attachCallInputChecks(doc: LoadedDocument, run: PreparedRun): Promise<void> {
  const { callInputsProblem, compileInputSchema } = await import('./input-schema.js');
  const checks = new Map<string, Awaited<ReturnType<typeof compileInputSchema>>>();
  for (const { plan, programs } of run.workflows.values()) {
    for (const [index, step] of plan.steps.entries()) {
      if (!step.call) continue;
      const key = step.call.workflow;
      const workflow = doc.model.workflows.find((w) => w.workflowId === key);
      if (!workflow || workflow.inputs === undefined || workflow.inputs === null) continue;
      if (!checks.has(key)) checks.set(key, await compileInputSchema(doc, workflow));
      const check = checks.get(key);
      if (!check) continue;
      programs[index]!.callInputs = (inputs) => {
        const checked = check(inputs);
        return 'inputs' in checked ? checked : { reason: callInputsProblem(key, checked.problem) };
      };
    }
  }
}
