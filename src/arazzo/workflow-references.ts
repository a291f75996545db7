/**
 * Where a document names a workflow: dependsOn, nested workflow steps and the workflowId of goto
 * and retry actions (inline, workflow-level, or through a `$components` reference), each with its
 * JSON pointer. A `$sourceDescriptions.<name>.<workflowId>` reference names a workflow of the
 * Arazzo source `<name>` (v2).
 */
import { isReference, type Action, type ActionOrReference, type ArazzoDocument, type Workflow } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

/** One place that names a workflow. `what` words the place for messages (`step "callLib"`). */
export interface WorkflowReference {
  reference: string;
  pointer: string;
  what: string;
}

const SOURCE_WORKFLOW = /^\$sourceDescriptions\.([^.]+)\.(.+)$/;

/** `$sourceDescriptions.<source>.<workflowId>` read apart, or undefined for another reference. */
export function sourceWorkflow(reference: string): { source: string; workflowId: string } | undefined {
  const match = SOURCE_WORKFLOW.exec(reference);
  return match ? { source: match[1]!, workflowId: match[2]! } : undefined;
}

/**
 * Every workflow `workflow` names: its dependsOn, its nested steps, and the workflowId of the
 * actions its steps and its own chains hold (a `$components` reference is followed; the pointer is
 * then the component's).
 */
export function workflowReferences(doc: ArazzoDocument, workflow: Workflow): WorkflowReference[] {
  const id = workflow.workflowId ?? '';
  const found: WorkflowReference[] = workflow.dependsOn.map((reference, i) => ({ reference, pointer: `${childPointer(workflow.pointer, 'dependsOn')}/${i}`, what: `workflow "${id}": dependsOn` }));
  const actions = (chain: ActionOrReference[] | undefined) => {
    for (const entry of chain ?? []) {
      const action = isReference(entry) ? componentAction(doc, entry.reference) : entry;
      if (action?.workflowId !== undefined && action.stepId === undefined) {
        found.push({ reference: action.workflowId, pointer: childPointer(action.pointer, 'workflowId'), what: `${action.type ?? 'action'} action "${action.name ?? ''}"` });
      }
    }
  };
  for (const step of workflow.steps) {
    if (step.workflowId !== undefined && step.operationId === undefined && step.operationPath === undefined) {
      found.push({ reference: step.workflowId, pointer: childPointer(step.pointer, 'workflowId'), what: `step "${step.stepId ?? ''}"` });
    }
    actions(step.onSuccess);
    actions(step.onFailure);
  }
  actions(workflow.successActions);
  actions(workflow.failureActions);
  return found;
}

/** The references of every workflow of the document, and of the actions of its components, each place once. */
export function allWorkflowReferences(doc: ArazzoDocument): WorkflowReference[] {
  const seen = new Set<string>();
  const all: WorkflowReference[] = [];
  const add = (found: WorkflowReference) => {
    if (seen.has(found.pointer)) return;
    seen.add(found.pointer);
    all.push(found);
  };
  for (const workflow of doc.workflows) workflowReferences(doc, workflow).forEach(add);
  for (const section of ['successActions', 'failureActions'] as const) {
    for (const action of Object.values(doc.components?.[section] ?? {})) {
      if (action.workflowId !== undefined && action.stepId === undefined) add({ reference: action.workflowId, pointer: childPointer(action.pointer, 'workflowId'), what: `action "${action.name ?? ''}"` });
    }
  }
  return all;
}

/** The message of a reference to a workflow that the Arazzo source (`url`, with workflows `ids`) does not declare. */
export function unknownSourceWorkflowMessage(found: WorkflowReference, source: string, url: string, workflowId: string, ids: readonly string[]): string {
  return `${found.what} names workflow "${workflowId}" of source "${source}", which ${url} does not declare${didYouMean(workflowId, ids)}`;
}

function componentAction(doc: ArazzoDocument, reference: string): Action | undefined {
  const match = /^\$components\.(successActions|failureActions)\.(.+)$/.exec(reference);
  const section = match ? doc.components?.[match[1] as 'successActions' | 'failureActions'] : undefined;
  return section && Object.hasOwn(section, match![2]!) ? section[match![2]!] : undefined;
}

/**
 * An Arazzo 1.1 step `dependsOn` entry that names a step of another workflow:
 * `$workflows.<id>.steps.<stepId>` (`source` absent) or
 * `$sourceDescriptions.<source>.<id>.steps.<stepId>`; undefined for anything else (a stepId of the
 * same workflow, or a malformed reference).
 */
export function otherWorkflowStep(name: string): { source?: string; workflowId: string; stepId: string } | undefined {
  const local = /^\$workflows\.([A-Za-z0-9_-]+)\.steps\.(.+)$/.exec(name);
  if (local) return { workflowId: local[1]!, stepId: local[2]! };
  const remote = /^\$sourceDescriptions\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.steps\.(.+)$/.exec(name);
  return remote ? { source: remote[1]!, workflowId: remote[2]!, stepId: remote[3]! } : undefined;
}
