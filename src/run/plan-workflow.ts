import type { ActionPlan, ChainSource, StepPlan, WorkflowPlan } from '../../machines/types.js';
import type { Action, ActionOrReference, ArazzoDocument, Criterion, Workflow } from '../arazzo/model.js';
import { isReference } from '../arazzo/model.js';
import { EXIT, ToolError } from '../cli/errors.js';
import { parseCondition, type Condition } from '../expressions/index.js';

/** Thrown when a workflow cannot be turned into a plan: a bad reference or goto target, a retry in a success chain. */
export class PlanError extends ToolError {
  constructor(
    code: 'BAD_REFERENCE' | 'UNKNOWN_GOTO_TARGET' | 'RETRY_ON_SUCCESS' | 'BAD_CONDITION',
    message: string,
    readonly pointer: string,
  ) {
    super(code, message, EXIT.INVALID_DOCUMENT);
    this.name = 'PlanError';
  }
}

/** A set of simple conditions that must all hold; the judge evaluates it by index. */
export interface CriteriaSet {
  conditions: Condition[];
  /** The conditions as written, for messages. */
  sources: string[];
}

export interface PlannedWorkflow {
  plan: WorkflowPlan;
  /** Criteria sets of all actions, indexed by ActionPlan.criteriaId. */
  criteria: CriteriaSet[];
}

type Side = 'onSuccess' | 'onFailure';

const REFERENCE = /^\$components\.(successActions|failureActions)\.([A-Za-z0-9_.-]+)$/;

/**
 * Builds the machine plan of one workflow: presence rules applied to both chains, `$components`
 * references resolved, action criteria parsed once. Throws PlanError for a bad reference, a goto
 * to a missing step, or a retry in a success chain (the document is invalid; exit 10).
 */
export function planWorkflow(doc: ArazzoDocument, workflow: Workflow): PlannedWorkflow {
  const criteria: CriteriaSet[] = [];
  const stepIndex = new Map<string, number>();
  workflow.steps.forEach((step, i) => {
    if (step.stepId !== undefined && !stepIndex.has(step.stepId)) stepIndex.set(step.stepId, i);
  });

  const planAction = (entry: ActionOrReference, side: Side): ActionPlan => {
    const action = resolveReference(doc, entry, side);
    const name = action.name ?? '(unnamed)';
    const type = action.type ?? '';
    const plan: ActionPlan = {
      name,
      type: type === 'goto' || type === 'retry' ? type : 'end',
      retryAfterSeconds: action.retryAfter ?? 0,
      retryLimit: action.retryLimit ?? 1,
      label: '',
    };
    const sources: string[] = [];
    const conditions: Condition[] = [];
    for (const criterion of action.criteria) {
      const problem = unsupportedCriterion(criterion);
      if (problem) {
        plan.unsupported ??= `action "${name}": ${problem}`;
        continue;
      }
      conditions.push(parseConditionAt(criterion));
      sources.push(criterion.condition ?? '');
    }
    if (conditions.length > 0 && !plan.unsupported) {
      plan.criteriaId = criteria.length;
      criteria.push({ conditions, sources });
      if (conditions.some(hasOrdering)) plan.criteriaCanFail = true;
    }
    if (type === 'replay') plan.unsupported ??= `action "${name}": replay is not implemented in v1`;
    else if (type !== 'end' && type !== 'goto' && type !== 'retry') plan.unsupported ??= `action "${name}": unknown action type "${type}"`;
    if (type === 'goto' && action.workflowId !== undefined) {
      plan.unsupported ??= `action "${name}": goto to another workflow ("${action.workflowId}") is not supported in v1`;
    } else if (type === 'goto') {
      const target = action.stepId === undefined ? undefined : stepIndex.get(action.stepId);
      if (target === undefined) {
        throw new PlanError('UNKNOWN_GOTO_TARGET', `goto action "${name}" targets step "${action.stepId ?? ''}", which workflow "${workflow.workflowId}" does not have`, action.pointer);
      }
      plan.targetIndex = target;
    }
    if (type === 'retry' && side === 'onSuccess') {
      throw new PlanError('RETRY_ON_SUCCESS', `retry action "${name}" cannot be a success action (Arazzo allows end and goto there)`, action.pointer);
    }
    plan.label = actionLabel(side, plan, type, action.stepId, sources);
    return plan;
  };

  const chain = (own: ActionOrReference[] | undefined, inherited: ActionOrReference[] | undefined, side: Side): [ActionPlan[], ChainSource] => {
    // Presence rules: absent -> the workflow's chain; [] -> opt out; non-empty -> the step's chain wins.
    if (own !== undefined) return [own.map((a) => planAction(a, side)), own.length > 0 ? 'step' : 'none'];
    if (inherited !== undefined && inherited.length > 0) return [inherited.map((a) => planAction(a, side)), 'workflow'];
    return [[], 'none'];
  };

  const steps: StepPlan[] = workflow.steps.map((step) => {
    const [onSuccess, onSuccessFrom] = chain(step.onSuccess, workflow.successActions, 'onSuccess');
    const [onFailure, onFailureFrom] = chain(step.onFailure, workflow.failureActions, 'onFailure');
    const planned: StepPlan = { stepId: step.stepId ?? '', onSuccess, onFailure, onSuccessFrom, onFailureFrom };
    const contextual = step.successCriteria.find((c) => c.type === 'simple' && c.context !== undefined && c.context !== '');
    if (contextual) planned.unsupported = `a success criterion has a context ("${contextual.context}"), which is not supported in v1`;
    if (step.operationId === undefined) {
      if (step.operationPath !== undefined) planned.unsupported = 'operationPath steps are not supported in v1; use operationId';
      else if (step.workflowId !== undefined) planned.unsupported = `nested workflow steps ("${step.workflowId}") are not supported in v1`;
    }
    return planned;
  });
  return { plan: { workflowId: workflow.workflowId ?? '', steps }, criteria };
}

function resolveReference(doc: ArazzoDocument, entry: ActionOrReference, side: Side): Action {
  if (!isReference(entry)) return entry;
  const match = REFERENCE.exec(entry.reference);
  if (!match) {
    throw new PlanError('BAD_REFERENCE', `reference "${entry.reference}" must be exactly $components.successActions.<name> or $components.failureActions.<name>`, entry.pointer);
  }
  const section = match[1] as 'successActions' | 'failureActions';
  const wanted = side === 'onSuccess' ? 'successActions' : 'failureActions';
  if (section !== wanted) {
    throw new PlanError('BAD_REFERENCE', `reference "${entry.reference}" names a ${section.slice(0, -1)} but is used as a ${wanted.slice(0, -1)}`, entry.pointer);
  }
  const actions = doc.components?.[section];
  const action = actions && Object.hasOwn(actions, match[2]!) ? actions[match[2]!] : undefined;
  if (!action) throw new PlanError('BAD_REFERENCE', `reference "${entry.reference}": components.${section} has no "${match[2]}"`, entry.pointer);
  return action;
}

/** Why a criterion of an action cannot be dispatched in v1, or undefined when it can. */
function unsupportedCriterion(criterion: Criterion): string | undefined {
  if (criterion.type !== 'simple') return `criteria of type ${criterion.type} are not supported in v1`;
  if (criterion.context !== undefined && criterion.context !== '') return `a criterion with a context ("${criterion.context}") is not supported in v1`;
  return undefined;
}

function parseConditionAt(criterion: Criterion): Condition {
  try {
    return parseCondition(criterion.condition ?? '');
  } catch (error) {
    throw new PlanError('BAD_CONDITION', `condition "${criterion.condition ?? ''}": ${(error as Error).message}`, criterion.pointer);
  }
}

/** `onFailure: retryLater (retry x3 after 2s) [$statusCode == 503]`, for graphs and traces. */
function actionLabel(side: Side, plan: ActionPlan, type: string, stepId: string | undefined, criteria: string[]): string {
  let what = type;
  if (type === 'retry') what = `retry x${plan.retryLimit}${plan.retryAfterSeconds > 0 ? ` after ${plan.retryAfterSeconds}s` : ''}`;
  if (type === 'goto') what = `goto ${stepId ?? '?'}`;
  const guard = criteria.length > 0 ? ` [${criteria.join(' && ')}]` : '';
  return `${side}: ${plan.name} (${what})${guard}`;
}

/** Whether a condition contains an ordering comparison, the only thing whose evaluation can fail. */
function hasOrdering(condition: Condition): boolean {
  switch (condition.kind) {
    case 'compare':
      return ['<', '<=', '>', '>='].includes(condition.op) || hasOrdering(condition.left) || hasOrdering(condition.right);
    case 'and':
    case 'or':
      return condition.operands.some(hasOrdering);
    case 'not':
      return hasOrdering(condition.operand);
    default:
      return false;
  }
}
