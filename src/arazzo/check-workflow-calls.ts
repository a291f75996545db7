/**
 * v2's checks of what names a workflow: nested steps, gotos and retries to a workflow, retries that
 * run a step, and dependsOn. A workflow of this document must exist (with a suggestion when it does
 * not); a workflow of another Arazzo document (`$sourceDescriptions.<name>.<id>`) must name a
 * source of type arazzo (check-source-workflows.ts looks into that source when it can be read);
 * a dependsOn cycle is an error (also through nested calls), a cycle of nested calls alone a warning (criteria may end it;
 * --tool-max-depth stops it otherwise).
 */
import type { Report } from './finding.js';
import { isReference, type Action, type ActionOrReference, type ArazzoDocument, type Workflow } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';
import { sourceWorkflow } from './workflow-references.js';

export function checkWorkflowCalls(doc: ArazzoDocument, report: Report): void {
  const ids = doc.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
  /** Whether `reference` names a workflow this version runs; reports it when not. */
  const known = (reference: string, pointer: string, what: string): boolean => {
    if (ids.includes(reference)) return true;
    const other = sourceWorkflow(reference);
    if (other) checkSourceName(doc, other.source, reference, pointer, what, report);
    else report.error('UNKNOWN_WORKFLOW', pointer, `${what} names workflow "${reference}", which the document does not declare${didYouMean(reference, ids)}`);
    return false;
  };
  const calls = new Map<string, Array<{ to: string; pointer: string }>>();
  const transfers = new Map<string, Array<{ to: string; pointer: string }>>();
  for (const workflow of doc.workflows) {
    const id = workflow.workflowId ?? '';
    const edges: Array<{ to: string; pointer: string }> = [];
    const handovers: Array<{ to: string; pointer: string }> = [];
    calls.set(id, edges);
    transfers.set(id, handovers);
    workflow.dependsOn.forEach((reference, i) => known(reference, `${childPointer(workflow.pointer, 'dependsOn')}/${i}`, `workflow "${id}": dependsOn`));
    for (const step of workflow.steps) {
      const label = `step "${step.stepId ?? ''}"`;
      if (step.workflowId !== undefined && step.operationId === undefined && step.operationPath === undefined) {
        const pointer = childPointer(step.pointer, 'workflowId');
        if (known(step.workflowId, pointer, label)) edges.push({ to: step.workflowId, pointer });
        checkNoResponse(step, label, report);
        for (const parameter of step.parameters) {
          if (!isReference(parameter) && parameter.in !== undefined) {
            report.warning('NESTED_PARAMETER_IN', childPointer(parameter.pointer, 'in'), `${label} calls a workflow: its parameter "${parameter.name ?? ''}" becomes the input of that name, and its "in" is ignored`);
          }
        }
      }
      for (const entry of [...(step.onSuccess ?? []), ...(step.onFailure ?? [])]) checkAction(workflow, entry, known, report, edges, handovers);
    }
    for (const entry of [...(workflow.successActions ?? []), ...(workflow.failureActions ?? [])]) checkAction(workflow, entry, known, report, edges, handovers);
  }
  for (const section of ['successActions', 'failureActions'] as const) {
    for (const action of Object.values(doc.components?.[section] ?? {})) {
      if (action.workflowId !== undefined) known(action.workflowId, childPointer(action.pointer, 'workflowId'), `action "${action.name ?? ''}"`);
    }
  }
  checkDependencyCycles(doc, report);
  checkCallCycles(calls, report);
  checkMixedCycles(doc, calls, transfers, report);
}

/** A workflow of another document must name a source of type arazzo that the document declares. */
function checkSourceName(doc: ArazzoDocument, name: string, reference: string, pointer: string, what: string, report: Report): void {
  const source = doc.sourceDescriptions.find((s) => s.name === name);
  if (source?.type === 'arazzo') return;
  const arazzo = doc.sourceDescriptions.flatMap((s) => (s.type === 'arazzo' && s.name !== undefined ? [s.name] : []));
  if (source) report.error('UNKNOWN_SOURCE', pointer, `${what} names "${reference}", but source "${name}" is of type ${source.type ?? 'openapi'}; a workflow is named in a source of type arazzo`);
  else report.error('UNKNOWN_SOURCE', pointer, `${what} names "${reference}", but the document declares no source "${name}"${didYouMean(name, arazzo)}`);
}

/** Checks an action's targets; a retry that runs a workflow is a call, added to `edges`, and a goto to one a transfer, added to `handovers`, for the cycle checks. */
function checkAction(
  workflow: Workflow,
  entry: ActionOrReference,
  known: (reference: string, pointer: string, what: string) => boolean,
  report: Report,
  edges: Array<{ to: string; pointer: string }>,
  handovers: Array<{ to: string; pointer: string }>,
): void {
  // A reference is checked where its component is declared.
  if (isReference(entry)) return;
  const action: Action = entry;
  const label = `${action.type ?? 'action'} action "${action.name ?? ''}"`;
  if (action.workflowId !== undefined && action.stepId === undefined) {
    const pointer = childPointer(action.pointer, 'workflowId');
    if (known(action.workflowId, pointer, label)) {
      if (action.type === 'retry') edges.push({ to: action.workflowId, pointer });
      else if (action.type === 'goto') handovers.push({ to: action.workflowId, pointer });
    }
  }
  if (action.type === 'retry' && action.stepId !== undefined && action.workflowId === undefined) {
    const steps = workflow.steps.flatMap((step) => (step.stepId === undefined ? [] : [step.stepId]));
    if (!steps.includes(action.stepId)) {
      report.error('UNKNOWN_GOTO_STEP', childPointer(action.pointer, 'stepId'), `${label} runs step "${action.stepId}", which workflow "${workflow.workflowId ?? ''}" does not have${didYouMean(action.stepId, steps)}`);
    }
  }
}

/** The cycle closed by an edge from `id` (reached through `path`) back to `to`: `a → b → a`. */
function cyclePath(path: readonly string[], id: string, to: string): string[] {
  const start = path.indexOf(to);
  return start === -1 ? [id, to] : [...path.slice(start), id, to];
}

/** dependsOn must not loop: each cycle is an error on the workflow that closes it. */
function checkDependencyCycles(doc: ArazzoDocument, report: Report): void {
  const byId = new Map(doc.workflows.map((w) => [w.workflowId ?? '', w] as const));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (workflow: Workflow, path: string[]): void => {
    const id = workflow.workflowId ?? '';
    state.set(id, 'visiting');
    workflow.dependsOn.forEach((reference, i) => {
      const target = byId.get(reference);
      if (!target) return;
      if (state.get(reference) === 'visiting') {
        const cycle = cyclePath(path, id, reference);
        report.error('DEPENDS_ON_CYCLE', `${childPointer(workflow.pointer, 'dependsOn')}/${i}`, `dependsOn forms a cycle: ${cycle.join(' → ')}; no workflow of it could run first`);
      } else if (state.get(reference) !== 'done') visit(target, [...path, id]);
    });
    state.set(id, 'done');
  };
  for (const workflow of doc.workflows) if (!state.has(workflow.workflowId ?? '')) visit(workflow, []);
}

/**
 * A workflow that depends on another which, through nested calls or transfers (and dependencies),
 * runs it again: it waits for a workflow that cannot finish without it, so no workflow of the loop
 * could run first. An error on the dependsOn entry, once per entry; a loop of dependsOn alone is
 * checkDependencyCycles', one of calls alone checkCallCycles'.
 */
function checkMixedCycles(doc: ArazzoDocument, calls: ReadonlyMap<string, Array<{ to: string; pointer: string }>>, transfers: ReadonlyMap<string, Array<{ to: string; pointer: string }>>, report: Report): void {
  const dependsOn = new Map(doc.workflows.map((w) => [w.workflowId ?? '', w.dependsOn] as const));
  for (const workflow of doc.workflows) {
    const id = workflow.workflowId ?? '';
    workflow.dependsOn.forEach((first, i) => {
      // Breadth-first from `first` over both kinds of edge; a node is seen once with and once without a call on the way.
      const queue: Array<{ at: string; path: string[]; called: boolean }> = [{ at: first, path: [id, first], called: false }];
      const seen = new Set<string>();
      while (queue.length > 0) {
        const { at, path, called } = queue.shift()!;
        if (at === id && called) {
          report.error('DEPENDS_ON_CYCLE', `${childPointer(workflow.pointer, 'dependsOn')}/${i}`, `dependsOn and nested calls or transfers form a cycle: ${path.join(' → ')}; "${id}" waits for "${first}", which cannot finish without it`);
          return;
        }
        const key = `${at}\0${called}`;
        if (at === id || seen.has(key)) continue;
        seen.add(key);
        for (const next of dependsOn.get(at) ?? []) queue.push({ at: next, path: [...path, next], called });
        for (const edge of [...(calls.get(at) ?? []), ...(transfers.get(at) ?? [])]) queue.push({ at: edge.to, path: [...path, edge.to], called: true });
      }
    });
  }
}

/** Nested calls that come back to a workflow already being called: a warning, once per cycle. */
function checkCallCycles(calls: ReadonlyMap<string, Array<{ to: string; pointer: string }>>, report: Report): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    state.set(id, 'visiting');
    for (const edge of calls.get(id) ?? []) {
      if (state.get(edge.to) === 'visiting') {
        const cycle = cyclePath(path, id, edge.to);
        report.warning('WORKFLOW_CALL_CYCLE', edge.pointer, `nested calls form a cycle: ${cycle.join(' → ')}; unless criteria end it, --tool-max-depth (default 32) stops the run`);
      } else if (state.get(edge.to) !== 'done') visit(edge.to, [...path, id]);
    }
    state.set(id, 'done');
  };
  for (const id of calls.keys()) if (!state.has(id)) visit(id, []);
}

/** What a nested step cannot read: it has no HTTP exchange of its own. */
const EXCHANGE = /\$(statusCode|response\b|request\b|url\b|method\b)/;

/** A nested step's criteria and outputs that read an HTTP exchange, which it does not have: they resolve to nothing. */
function checkNoResponse(step: Workflow['steps'][number], label: string, report: Report): void {
  const warn = (pointer: string, text: string) => {
    const match = EXCHANGE.exec(text);
    if (match) report.warning('NESTED_STEP_NO_RESPONSE', pointer, `${label} calls a workflow and has no HTTP request or response of its own: $${match[1]} resolves to nothing here; read the called workflow's outputs as $outputs.<name>`);
  };
  for (const criterion of step.successCriteria) warn(criterion.pointer, `${criterion.condition ?? ''} ${criterion.context ?? ''}`);
  for (const [name, value] of Object.entries(step.outputs)) warn(childPointer(childPointer(step.pointer, 'outputs'), name), typeof value === 'string' ? value : String(value.context));
}
