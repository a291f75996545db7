/**
 * What a workflow sends, for the server's safety rule: the HTTP methods of every step it runs (its
 * own, the workflows it calls, depends on or goes to in the same document), found as the planner
 * finds a step's operation. A workflow is read-only when every one is GET, HEAD or OPTIONS; a step
 * whose method cannot be told (an operation not found, another document's workflow, a message)
 * counts as a write.
 */
import type { Action, ActionOrReference, ArazzoDocument, Step, Workflow } from '../../arazzo/model.js';
import { OperationPathSyntaxError, parseOperationPath } from '../../arazzo/operation-path.js';
import type { BoundSource } from '../../plan/bind-sources.js';
import { findOperation } from '../../plan/compile-steps.js';

/** The methods that change nothing (RFC 9110 safe methods; TRACE left out). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a workflow sends: each distinct `METHOD path` (or `send channel`), and the steps whose method could not be told. */
export interface WorkflowSends {
  requests: string[];
  unknown: string[];
}

/** Whether a workflow only reads: it sends only safe methods, and every step's method is known. */
export function readsOnly(sends: WorkflowSends): boolean {
  return sends.unknown.length === 0 && sends.requests.every((request) => SAFE_METHODS.has(request.split(' ')[0]!));
}

/** What `workflow` sends, with the workflows of `doc` it reaches; `sources` are the document's OpenAPI sources, their descriptions loaded (those that could be). */
export function workflowSends(doc: ArazzoDocument, workflow: Workflow, sources: BoundSource[]): WorkflowSends {
  const requests = new Set<string>();
  const unknown: string[] = [];
  const visited = new Set<Workflow>();
  const visit = (w: Workflow) => {
    if (visited.has(w)) return;
    visited.add(w);
    const reach = (id: string | undefined, what: string) => {
      if (id === undefined) return;
      const target = doc.workflows.find((other) => other.workflowId === id);
      if (target) visit(target);
      else unknown.push(`${what} "${id}" (not a workflow of this document)`);
    };
    for (const id of w.dependsOn) reach(id, `dependency`);
    for (const action of actionsOf(doc, w.successActions, w.failureActions)) reach(action.workflowId, 'workflow');
    for (const step of w.steps) {
      const sent = stepSends(step, sources);
      if (typeof sent === 'string') requests.add(sent);
      else if (sent.workflowId !== undefined) reach(sent.workflowId, `step "${step.stepId}" calls workflow`);
      else unknown.push(sent.problem);
      for (const action of actionsOf(doc, step.onSuccess, step.onFailure)) reach(action.workflowId, 'workflow');
    }
  };
  visit(workflow);
  return { requests: [...requests], unknown };
}

/** A step's `METHOD path`, the workflow it calls, or why its method cannot be told (naming the step). */
function stepSends(step: Step, sources: BoundSource[]): string | { workflowId: string } | { workflowId?: undefined; problem: string } {
  if (step.workflowId !== undefined) return { workflowId: step.workflowId };
  if (step.action !== undefined || step.channelPath !== undefined) return { problem: `step "${step.stepId}": an asynchronous ${step.action ?? 'message'} step` };
  if (step.operationId === undefined && step.operationPath !== undefined) {
    try {
      const target = parseOperationPath(step.operationPath);
      return `${target.method.toUpperCase()} ${target.path}`;
    } catch (error) {
      if (error instanceof OperationPathSyntaxError) return { problem: `step "${step.stepId}": ${error.message}` };
      throw error;
    }
  }
  try {
    const { operation } = findOperation(step, sources);
    return `${operation.method.toUpperCase()} ${operation.path}`;
  } catch (error) {
    // findOperation's messages name the step.
    return { problem: (error as Error).message };
  }
}

/** The actions of the lists, references to the document's components followed. */
function actionsOf(doc: ArazzoDocument, ...lists: Array<ActionOrReference[] | undefined>): Action[] {
  const out: Action[] = [];
  for (const item of lists.flatMap((list) => list ?? [])) {
    if (!('reference' in item)) {
      out.push(item);
      continue;
    }
    const found = /^\$components\.(successActions|failureActions)\.(.+)$/.exec(item.reference);
    const action = found ? doc.components?.[found[1] as 'successActions' | 'failureActions']?.[found[2]!] : undefined;
    if (action) out.push(action);
  }
  return out;
}
