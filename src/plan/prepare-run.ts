/**
 * A v2 run's workflows, prepared once before the first request: the selected workflow, its
 * dependencies (dependsOn, transitively, in the order they run), and every workflow a nested step,
 * a goto or a retry can reach from them, in the run's document or in the Arazzo sources those
 * references reach (run-documents.ts opens each when first reached). Each is planned and compiled
 * once, however often it runs, with its own document's components and sources. Each plan lists
 * its own dependsOn (WorkflowPlan.dependsOn), whatever reaches it.
 */
import type { WorkflowPlan } from '../../machines/types.js';
import type { LoadedDocument, Workflow } from '../arazzo/model.js';
import { ToolError } from '../errors/tool-error.js';
import type { TemplateWarning } from '../expressions/template-ast.js';
import { prepareWorkflow, type PreparedWorkflow } from './prepare-workflow.js';
import { applyRunSemantics } from './plan-workflow.js';
import type { ResolvedWorkflow, RunDocuments } from './run-documents.js';
import { workflowKeysOf } from './workflows-view.js';

export interface PreparedRun {
  /** The selected workflow's key. */
  entry: string;
  /**
   * Keys of the selected workflow's dependencies, transitively, in the order they run (each once);
   * the run follows each plan's `dependsOn` (WorkflowPlan.dependsOn), which also gives those of
   * the workflows it reaches.
   */
  dependencies: string[];
  /** Every workflow the run can reach, by key. */
  workflows: Map<string, PreparedWorkflow>;
  /** The workflow and document behind each key (a key is `<source>.<id>` for a workflow of an Arazzo source). */
  targets: ReadonlyMap<string, ResolvedWorkflow>;
}

/**
 * Prepares `entry` (a workflow of the run's document, `documents.root`), its dependencies and every
 * workflow they can reach. Template warnings of the run's document are appended to `warnings`
 * (those of Arazzo sources are printed). Rejects with ToolError DEPENDS_ON_CYCLE for a dependency
 * cycle or unknown id (validation reports them first), the errors of RunDocuments.references
 * (an Arazzo source that cannot be read, is invalid, or lacks the workflow), and the preparation
 * errors of prepareWorkflow.
 */
export async function prepareRun(documents: RunDocuments, entry: Workflow, warnings: TemplateWarning[]): Promise<PreparedRun> {
  const entryKey = entry.workflowId ?? '';
  const targets = new Map<string, ResolvedWorkflow>([[entryKey, { key: entryKey, document: documents.root, workflow: entry }]]);
  const dependencies = await dependencyOrder(documents, targets.get(entryKey)!, targets);
  const workflows = new Map<string, PreparedWorkflow>();
  const queue = [entryKey, ...dependencies];
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (workflows.has(key)) continue;
    const target = targets.get(key);
    if (!target) continue;
    const { document, workflow } = target;
    const references = await documents.references(document, workflow);
    for (const reached of references.values()) addTarget(targets, reached);
    // Its own dependsOn: a nested call of it, or a transfer to it, runs them first.
    const dependsOn = workflow.dependsOn.map((reference) => {
      const target = references.get(reference);
      if (!target) throw new ToolError('DEPENDS_ON_CYCLE', `workflow "${key}" depends on "${reference}", which is not a workflow of its document or of its Arazzo sources`);
      return target.key;
    });
    const own = document === documents.root ? warnings : [];
    const ids = document.loaded.model.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
    const prepared = prepareWorkflow(document.loaded.model, workflow, document.sources, own, document.criteria, {
      keyOf: (reference) => references.get(reference)?.key ?? (ids.includes(reference) ? document.prefix + reference : undefined),
      workflowKeys: workflowKeysOf(document.prefix, ids),
      text: document.loaded.text,
      location: document.loaded.absolutePath,
      ...(document.asyncSources ? { asyncSources: document.asyncSources } : {}),
    });
    if (own !== warnings) documents.warnTemplates(document, own);
    prepared.plan.key = key;
    if (dependsOn.length > 0) prepared.plan.dependsOn = dependsOn.map((dependency) => ({ workflow: dependency, transfers: [] }));
    applyRunSemantics(prepared.plan, document.criteria.profile);
    workflows.set(key, prepared);
    queue.push(...calledBy(prepared.plan));
  }
  // A nested step, and a dependency, may end up running any workflow a transfer inside it can reach.
  for (const { plan, programs } of workflows.values()) {
    for (const dependency of plan.dependsOn ?? []) dependency.transfers = [...transferClosure(dependency.workflow, workflows)];
    plan.steps.forEach((step, index) => {
      if (!step.call) return;
      step.call.transfers = [...transferClosure(step.call.workflow, workflows)];
      programs[index]!.callKey = step.call.workflow;
    });
  }
  return { entry: entryKey, dependencies, workflows, targets };
}

/** The workflows a plan can start: its dependencies, nested calls, gotos to workflows, retries that run a workflow. */
export function calledBy(plan: WorkflowPlan): string[] {
  const keys: string[] = (plan.dependsOn ?? []).map((dependency) => dependency.workflow);
  for (const step of plan.steps) {
    if (step.call) keys.push(step.call.workflow);
    for (const action of [...step.onSuccess, ...step.onFailure]) if (action.workflow !== undefined && !action.fails) keys.push(action.workflow);
  }
  return keys;
}

/** The workflows a run of `key` can transfer to, directly or through the workflows it transfers to. */
export function transferClosure(key: string, workflows: ReadonlyMap<string, { plan: WorkflowPlan }>): Set<string> {
  const seen = new Set<string>();
  const visit = (from: string) => {
    for (const step of workflows.get(from)?.plan.steps ?? []) {
      for (const action of [...step.onSuccess, ...step.onFailure]) {
        if (action.type !== 'goto' || action.workflow === undefined || action.fails || seen.has(action.workflow)) continue;
        seen.add(action.workflow);
        visit(action.workflow);
      }
    }
  };
  visit(key);
  return seen;
}

/**
 * The keys of the selected workflow's dependencies, transitively (a dependency in an Arazzo source
 * follows that document's own dependsOn), in topological order (a dependency before what depends
 * on it; declaration order otherwise), without the workflow itself. Each one reached is added to
 * `targets`. Rejects with ToolError DEPENDS_ON_CYCLE for a cycle or an id no document declares.
 */
export async function dependencyOrder(documents: RunDocuments, entry: ResolvedWorkflow, targets: Map<string, ResolvedWorkflow>): Promise<string[]> {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = async (current: ResolvedWorkflow, path: string[]): Promise<void> => {
    const { key } = current;
    state.set(key, 'visiting');
    const references = await documents.references(current.document, current.workflow);
    for (const reference of current.workflow.dependsOn) {
      const target = references.get(reference);
      if (!target) throw new ToolError('DEPENDS_ON_CYCLE', `workflow "${key}" depends on "${reference}", which is not a workflow of its document or of its Arazzo sources`);
      addTarget(targets, target);
      if (state.get(target.key) === 'visiting') throw new ToolError('DEPENDS_ON_CYCLE', `dependsOn forms a cycle: ${[...path, key, target.key].join(' → ')}`);
      if (state.get(target.key) !== 'done') await visit(target, [...path, key]);
    }
    state.set(key, 'done');
    order.push(key);
  };
  await visit(entry, []);
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
      // A workflow of an Arazzo source has its schema read in its own document (its components.inputs).
      const target = run.targets.get(key);
      const workflow = target?.workflow;
      if (!workflow || workflow.inputs === undefined || workflow.inputs === null) continue;
      if (!checks.has(key)) checks.set(key, await compileInputSchema(target?.document.loaded ?? doc, workflow));
      const check = checks.get(key);
      if (!check) continue;
      programs[index]!.callInputs = (inputs) => {
        const checked = check(inputs);
        if ('inputs' in checked) return checked;
        return { reason: 'stopped' in checked ? `workflow "${key}": its inputs schema could not check the inputs: ${checked.stopped}` : callInputsProblem(key, checked.problem, check.schema, checked.data) };
      };
    }
  }
}

/**
 * Adds a reached workflow under its key. Two different workflows with one key (a local id with a
 * `.`, such as `lib.finish`, and the workflow `finish` of source `lib`) would run each other:
 * refused before anything is sent.
 */
function addTarget<T extends { key: string; workflow: object }>(targets: Map<string, T>, target: T): void {
  const known = targets.get(target.key);
  if (known === undefined) targets.set(target.key, target);
  else if (known.workflow !== target.workflow) {
    throw new ToolError('WORKFLOW_KEY_CLASH', `two workflows have the key "${target.key}" (a workflowId with a "." and a workflow of an Arazzo source); rename the workflow so that the run can tell them apart`);
  }
}
