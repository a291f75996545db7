/** Success and failure action chains: types, goto targets, retry settings, references and criteria. */
import { checkCriteria } from './check-criteria.js';
import type { ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import { isReference, type Action, type ActionOrReference, type Reference, type Workflow } from './model.js';
import { childPointer, isObject } from './read-fields.js';
import { didYouMean } from './suggest.js';

export type ChainSide = 'success' | 'failure';

const REFERENCE = /^\$components\.(successActions|failureActions)\.([^.\s]+)$/;
const SECTION: Record<ChainSide, 'successActions' | 'failureActions'> = { success: 'successActions', failure: 'failureActions' };

/** Checks every action of a chain (inline or by reference) as a `side` chain of `scope.workflow`. */
export function checkChain(chain: readonly ActionOrReference[] | undefined, side: ChainSide, scope: ExpressionScope, rawAt: (pointer: string) => unknown, report: Report): void {
  for (const item of chain ?? []) {
    if (isReference(item)) checkActionReference(item, side, scope, report);
    else checkAction(item, side, scope, rawAt, report);
  }
}

/** Checks one inline action (also used for each component action, with a `shared` scope). */
export function checkAction(action: Action, side: ChainSide, scope: ExpressionScope, rawAt: (pointer: string) => unknown, report: Report): void {
  const typePointer = childPointer(action.pointer, 'type');
  const label = `${action.type ?? ''} action "${action.name ?? ''}"`;
  switch (action.type) {
    case undefined:
    case 'end':
      break;
    case 'goto':
      if (!hasTargetConflict(action, label, report)) checkGotoTarget(action, scope.phase === 'shared' ? undefined : scope.workflow, scope, report);
      break;
    case 'retry':
      if (side === 'success') {
        report.error('RETRY_IN_SUCCESS_CHAIN', typePointer, `action "${action.name ?? ''}": retry is not allowed on success (Arazzo allows only end and goto there)`);
      }
      if (!hasTargetConflict(action, label, report) && !scope.profile.runsNestedWorkflows) checkRetryTarget(action, label, scope, report);
      break;
    case 'replay':
      // No profile runs replay (it is no Arazzo 1.0.1 action type); each says so in its words.
      report.warning('ACTION_NOT_SUPPORTED', typePointer, scope.profile.findings.replay(action.name ?? ''));
      break;
    default:
      report.error('UNKNOWN_ACTION_TYPE', typePointer, `action type "${action.type}" is not one of end, goto, retry${didYouMean(action.type, ['end', 'goto', 'retry'])}`);
  }
  checkRetrySettings(action, rawAt, report);
  checkCriteria(action.criteria, 'action', scope, report);
}

// Arazzo makes stepId and workflowId of an action mutually exclusive.
function hasTargetConflict(action: Action, label: string, report: Report): boolean {
  if (action.stepId === undefined || action.workflowId === undefined) return false;
  report.error('ACTION_TARGET_CONFLICT', childPointer(action.pointer, 'workflowId'), `${label} has both stepId "${action.stepId}" and workflowId "${action.workflowId}"; give exactly one`);
  return true;
}

function checkGotoTarget(action: Action, workflow: Workflow | undefined, scope: ExpressionScope, report: Report): void {
  if (action.workflowId !== undefined) {
    // A profile that runs workflow calls checks the target itself (check-workflow-calls.ts).
    if (!scope.profile.runsNestedWorkflows) report.warning('CROSS_WORKFLOW_GOTO', childPointer(action.pointer, 'workflowId'), scope.profile.findings.workflowGoto(action.name ?? '', action.workflowId));
    return;
  }
  if (action.stepId === undefined) {
    report.error('MISSING_GOTO_TARGET', action.pointer, `goto action "${action.name ?? ''}" has neither stepId nor workflowId; name the step to go to`);
    return;
  }
  if (workflow !== undefined) checkGotoStep(action, childPointer(action.pointer, 'stepId'), workflow, report);
}

// A retry that then moves on to another step or workflow, under a profile that retries only the failed step itself.
function checkRetryTarget(action: Action, label: string, scope: ExpressionScope, report: Report): void {
  const field = action.stepId !== undefined ? 'stepId' : action.workflowId !== undefined ? 'workflowId' : undefined;
  if (field === undefined) return;
  const what = field === 'stepId' ? `step "${action.stepId}"` : `workflow "${action.workflowId}"`;
  report.warning('RETRY_TARGET_UNSUPPORTED', childPointer(action.pointer, field), scope.profile.findings.retryTarget(label, what));
}

function checkGotoStep(action: Action, at: string, workflow: Workflow, report: Report): void {
  const ids = workflow.steps.flatMap((step) => (step.stepId === undefined ? [] : [step.stepId]));
  if (action.stepId !== undefined && !ids.includes(action.stepId)) {
    report.error('UNKNOWN_GOTO_STEP', at, `goto action "${action.name ?? ''}" goes to step "${action.stepId}", which workflow "${workflow.workflowId ?? ''}" does not have${didYouMean(action.stepId, ids)}`);
  }
}

// The model drops numbers of the wrong type, so read the raw values to say what is wrong with them.
function checkRetrySettings(action: Action, rawAt: (pointer: string) => unknown, report: Report): void {
  const raw = rawAt(action.pointer);
  if (!isObject(raw)) return;
  const limit = raw.retryLimit;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0)) {
    report.error('INVALID_RETRY_LIMIT', childPointer(action.pointer, 'retryLimit'), `retryLimit must be a whole number of retries, 0 or more; found ${JSON.stringify(limit)}`);
  }
  const after = raw.retryAfter;
  if (after !== undefined && !(typeof after === 'number' && Number.isFinite(after) && after >= 0)) {
    report.error('INVALID_RETRY_AFTER', childPointer(action.pointer, 'retryAfter'), `retryAfter must be a number of seconds, 0 or more; found ${JSON.stringify(after)}`);
  }
}

function checkActionReference(ref: Reference, side: ChainSide, scope: ExpressionScope, report: Report): void {
  const at = childPointer(ref.pointer, 'reference');
  const match = REFERENCE.exec(ref.reference);
  if (!match) {
    report.error('INVALID_REFERENCE', at, `reference "${ref.reference}" must be exactly $components.${SECTION[side]}.<name>`);
    return;
  }
  const section = match[1] as 'successActions' | 'failureActions';
  const name = match[2] ?? '';
  if (section !== SECTION[side]) {
    report.error('REFERENCE_KIND_MISMATCH', at, `reference "${ref.reference}" is a ${section === 'successActions' ? 'success' : 'failure'} action used in a ${side} chain; use $components.${SECTION[side]}.<name>`);
    return;
  }
  const components = scope.doc.components?.[section] ?? {};
  const target = Object.hasOwn(components, name) ? components[name] : undefined;
  if (target === undefined) {
    report.error('UNKNOWN_COMPONENT', at, `reference "${ref.reference}": components.${section} has no "${name}"${didYouMean(name, Object.keys(components))}`);
    return;
  }
  // The component itself is checked once; only its goto target depends on the workflow using it.
  if (target.type === 'goto' && scope.workflow !== undefined && scope.phase !== 'shared') {
    checkGotoStep(target, at, scope.workflow, report);
  }
}
