import type { ActionPlan, ChainSource, PlannedFailure, StepPlan, WorkflowPlan } from '../../machines/types.js';
import { DEFAULT_PROFILE, type RunnerProfile } from '../arazzo/runner-profile.js';
import type { Action, ActionOrReference, ArazzoDocument, Criterion as CriterionObject, Step, Workflow } from '../arazzo/model.js';
import { isReference } from '../arazzo/model.js';
import { sourceWorkflow } from '../arazzo/workflow-references.js';
import { ToolError } from '../errors/tool-error.js';
import { criteriaCanFail, prepareCriterion, unsupportedCriterion, type CriteriaOptions, type CriteriaSet, type Criterion } from './evaluate-criteria.js';
import { codeSpan } from '../output/code-span.js';
import { compileTemplate, type TemplateOptions } from '../expressions/compile-template.js';
import { templateOptionsFor } from './template-options.js';
import type { Template } from '../expressions/template-ast.js';
import { resolveParameter } from './resolve-parameter.js';
import { markInFlight, stepRequirements } from './step-order.js';

/** The inputs an action's `parameters` pass to its workflow (Arazzo 1.1): name and value template. */
export type ActionInputs = ReadonlyArray<{ name: string; value: Template }>;

/** Thrown when a workflow cannot be turned into a plan: a bad reference, goto target or condition, a retry in a success chain. */
export class PlanError extends ToolError {
  constructor(
    code: 'BAD_REFERENCE' | 'UNKNOWN_GOTO_TARGET' | 'RETRY_ON_SUCCESS' | 'BAD_CONDITION',
    message: string,
    readonly pointer: string,
  ) {
    super(code, message);
    this.name = 'PlanError';
  }
}

/** The criteria of one step, prepared while it is planned: they go into the step's program. */
export interface StepCriteria {
  /** Success criteria the profile evaluates; none means only a 2xx status succeeds. */
  successCriteria: Criterion[];
  /** Success criteria of a type the profile does not evaluate (regex, jsonpath in v1), as the warning that says they are skipped (worded by the profile). */
  skippedCriteria: string[];
  /** Set with skippedCriteria: why the step then succeeds only on a 2xx status (worded by the profile). */
  skippedNote?: string;
  /** The criteria of the step's actions, indexed by ActionPlan.criteriaId. */
  actionCriteria: CriteriaSet[];
  /** Arazzo 1.1: the `parameters` of the step's actions that pass inputs to a workflow, indexed by ActionPlan.inputsId. */
  actionInputs?: ActionInputs[];
}

/** Step ids to indexes (the first step of an id wins), for goto targets. */
export type StepIndex = ReadonlyMap<string, number>;

/** The key (WorkflowPlan.key) of the workflow a reference names, or undefined when it names none the run can find. */
export type WorkflowKeyOf = (reference: string) => string | undefined;

type Side = 'onSuccess' | 'onFailure';

const REFERENCE = /^\$components\.(successActions|failureActions)\.([A-Za-z0-9_.-]+)$/;

/** The code of the failure of a step or action the profile refuses. */
const REFUSED = 'UNSUPPORTED';

function refused(reason: string): PlannedFailure {
  return { code: REFUSED, reason };
}

/**
 * Sets the run semantics the profile gives a plan of a run that prepares every workflow it can
 * reach (prepare-run.ts, plan-reachable.ts): records carry `workflowId`, a retry whose limit is
 * reached lets the chain go on, each retry action counts its own retries.
 */
export function applyRunSemantics(plan: WorkflowPlan, profile: RunnerProfile): void {
  if (profile.recordsWorkflowId) plan.recordsWorkflowId = true;
  if (profile.retryLimitContinuesChain) plan.retryLimitContinuesChain = true;
  if (profile.countsRetriesPerAction) plan.retriesPerAction = true;
}

/**
 * The machine plan of a workflow alone, for drawing it: what prepareWorkflow makes of each step
 * for the machine, without binding operations. Throws PlanError (the document is invalid; exit 10).
 */
export function planWorkflow(doc: ArazzoDocument, workflow: Workflow, options: CriteriaOptions = { profile: DEFAULT_PROFILE }): { plan: WorkflowPlan } {
  const index = stepIndexOf(workflow);
  const steps = workflow.steps.map((step) => planStep(doc, workflow, step, index, { successCriteria: [], skippedCriteria: [], actionCriteria: [] }, options));
  markInFlight(workflow, steps, options.profile);
  return { plan: { workflowId: workflow.workflowId ?? '', steps } };
}

/** Indexes the workflow's step ids for planStep. */
export function stepIndexOf(workflow: Workflow): StepIndex {
  const index = new Map<string, number>();
  workflow.steps.forEach((step, i) => {
    if (step.stepId !== undefined && !index.has(step.stepId)) index.set(step.stepId, i);
  });
  return index;
}

/**
 * Plans one step for the machine: presence rules applied to both chains, `$components` references
 * resolved, goto targets found, and whether the profile (`options.profile`, v1 by default) runs
 * the step and each action decided: a refused one fails with UNSUPPORTED when reached
 * (`fails`). The step's success and action criteria are prepared into `criteria`. `keyOf` gives
 * the key of a workflow a nested step or an action names (by default the
 * document's own workflows, by id). Throws PlanError for a bad reference or condition, a goto to a
 * missing step, or a retry in a success chain.
 */
export function planStep(doc: ArazzoDocument, workflow: Workflow, step: Step, index: StepIndex, criteria: StepCriteria, options: CriteriaOptions = { profile: DEFAULT_PROFILE }, keyOf: WorkflowKeyOf = (reference) => workflowKey(doc, reference)): StepPlan {
  const plan = planStepChains(doc, workflow, step, index, criteria, options, keyOf);
  // Arazzo 1.1: steps of other workflows this step depends on must have succeeded in the run.
  const requires = options.profile.ordersStepsByDependencies ? stepRequirements(step, keyOf) : [];
  if (requires.length > 0) plan.requires = requires;
  return plan;
}

function planStepChains(doc: ArazzoDocument, workflow: Workflow, step: Step, index: StepIndex, criteria: StepCriteria, options: CriteriaOptions, keyOf: WorkflowKeyOf): StepPlan {
  const stepId = step.stepId ?? '';
  const profile = options.profile;
  const chain = (own: ActionOrReference[] | undefined, inherited: ActionOrReference[] | undefined, side: Side): [ActionPlan[], ChainSource] => {
    const plan = (entry: ActionOrReference) => planAction(doc, workflow, stepId, resolveReference(doc, entry, side), side, index, criteria, options, keyOf);
    if (profile.mergesChains) return mergedChain(doc, own, inherited, side, plan);
    // Presence rules: absent -> the workflow's chain; [] -> opt out; non-empty -> the step's chain wins.
    if (own !== undefined) return [own.map(plan), own.length > 0 ? 'step' : 'none'];
    if (inherited !== undefined && inherited.length > 0) return [inherited.map(plan), 'workflow'];
    return [[], 'none'];
  };
  const [onSuccess, onSuccessFrom] = chain(step.onSuccess, workflow.successActions, 'onSuccess');
  const [onFailure, onFailureFrom] = chain(step.onFailure, workflow.failureActions, 'onFailure');
  const planned: StepPlan = { stepId, onSuccess, onFailure, onSuccessFrom, onFailureFrom };
  for (const criterion of step.successCriteria) {
    const unsupported = unsupportedCriterion(criterion, profile);
    if (unsupported === 'type') {
      criteria.skippedCriteria.push(profile.refusals.skippedCriterion(stepId, `${criterion.type} criterion ${codeSpan(criterion.condition ?? '')}`));
      criteria.skippedNote = profile.refusals.skippedCriteriaNote;
    }
    else if (unsupported === 'context') planned.fails ??= refused(profile.refusals.successCriterionContext(criterion.context ?? ''));
    else criteria.successCriteria.push(criterionAt(criterion, stepId, options));
  }
  if (step.operationId === undefined) {
    // A profile that runs operationPath steps finds their operation (compile-steps.ts).
    if (step.operationPath !== undefined) {
      if (!profile.runsOperationPaths) planned.fails = refused(profile.refusals.operationPath());
    } else if (step.workflowId !== undefined) {
      const key = profile.runsNestedWorkflows ? keyOf(step.workflowId) : undefined;
      if (key !== undefined) planned.call = profile.runsStepTimeouts && step.timeout !== undefined ? { workflow: key, transfers: [], timeoutMs: step.timeout } : { workflow: key, transfers: [] };
      else planned.fails = refused(profile.refusals.nestedWorkflow(step.workflowId));
    }
  }
  // Sending the payload without its replacements would send the wrong request, so nothing is sent.
  if (!profile.appliesReplacements && step.requestBody !== undefined && step.requestBody.replacements.length > 0) {
    planned.fails ??= refused(profile.refusals.replacements());
  }
  return planned;
}

/**
 * The key of the workflow a nested step, a goto or a retry names, read from the document
 * alone: a workflow of this document, by its id; `$sourceDescriptions.<name>.<id>` with `<name>` a
 * source of type arazzo, `<name>.<id>` (whether that document has it is not known here: a run
 * opens the source and passes planStep its own `keyOf`, prepare-run.ts). Anything else: undefined.
 */
export function workflowKey(doc: ArazzoDocument, reference: string): string | undefined {
  if (doc.workflows.some((w) => w.workflowId === reference)) return reference;
  const named = sourceWorkflow(reference);
  return named && doc.sourceDescriptions.some((s) => s.name === named.source && s.type === 'arazzo') ? `${named.source}.${named.workflowId}` : undefined;
}

/**
 * A step's chain when the profile merges chains (v2), as Arazzo merges it ("override it but can
 * never remove it"): the step's actions first, then the workflow's actions whose name the step does not define.
 */
function mergedChain(doc: ArazzoDocument, own: ActionOrReference[] | undefined, inherited: ActionOrReference[] | undefined, side: Side, plan: (entry: ActionOrReference) => ActionPlan): [ActionPlan[], ChainSource] {
  const mine = own ?? [];
  const names = new Set(mine.map((entry) => actionName(doc, entry, side)));
  const added = (inherited ?? []).filter((entry) => !names.has(actionName(doc, entry, side)));
  const source: ChainSource = mine.length === 0 ? (added.length === 0 ? 'none' : 'workflow') : added.length === 0 ? 'step' : 'merged';
  return [[...mine, ...added].map(plan), source];
}

function actionName(doc: ArazzoDocument, entry: ActionOrReference, side: Side): string | undefined {
  try {
    return resolveReference(doc, entry, side).name;
  } catch {
    return undefined;
  }
}

function planAction(doc: ArazzoDocument, workflow: Workflow, stepId: string, action: Action, side: Side, index: StepIndex, stepCriteria: StepCriteria, options: CriteriaOptions, keyOf: WorkflowKeyOf): ActionPlan {
  const actionCriteria = stepCriteria.actionCriteria;
  const name = action.name ?? '(unnamed)';
  const type = action.type ?? '';
  const plan: ActionPlan = {
    name,
    type: type === 'goto' || type === 'retry' ? type : 'end',
    retryAfterSeconds: action.retryAfter ?? 0,
    retryLimit: action.retryLimit ?? 1,
    label: '',
  };
  const criteria: Criterion[] = [];
  const profile = options.profile;
  for (const criterion of action.criteria) {
    const unsupported = unsupportedCriterion(criterion, profile);
    if (unsupported === 'type') plan.fails ??= refused(profile.refusals.actionCriterionType(name, criterion.type));
    else if (unsupported === 'context') plan.fails ??= refused(profile.refusals.actionCriterionContext(name, criterion.context ?? ''));
    else criteria.push(criterionAt(criterion, stepId, options));
  }
  if (criteria.length > 0 && !plan.fails) {
    plan.criteriaId = actionCriteria.length;
    actionCriteria.push(criteria);
    if (criteriaCanFail(criteria)) plan.criteriaCanFail = true;
  }
  if (type === 'replay') plan.fails ??= refused(profile.refusals.replay(name));
  else if (type !== 'end' && type !== 'goto' && type !== 'retry') plan.fails ??= refused(`action "${name}": unknown action type "${type}"`);
  const target = profile.runsNestedWorkflows && action.workflowId !== undefined ? keyOf(action.workflowId) : undefined;
  if (target !== undefined && (type === 'goto' || type === 'retry')) {
    plan.workflow = target;
    // Arazzo 1.1: the action's parameters are inputs of the workflow it runs.
    if (profile.passesActionParameters && action.parameters.length > 0) {
      const inputs = (stepCriteria.actionInputs ??= []);
      plan.inputsId = inputs.length;
      inputs.push(compileActionInputs(doc, action, stepId, templateOptionsFor(profile, options.libraries)));
    }
  }
  if (type === 'goto' && action.workflowId !== undefined) {
    if (target === undefined) plan.fails ??= refused(profile.refusals.workflowGoto(name, action.workflowId));
  } else if (type === 'goto') {
    const target = action.stepId === undefined ? undefined : index.get(action.stepId);
    if (target === undefined) {
      throw new PlanError('UNKNOWN_GOTO_TARGET', `goto action "${name}" targets step "${action.stepId ?? ''}", which workflow "${workflow.workflowId}" does not have`, action.pointer);
    }
    plan.targetIndex = target;
  }
  if (type === 'retry' && profile.runsNestedWorkflows && action.stepId !== undefined) {
    const step = index.get(action.stepId);
    if (step === undefined) throw new PlanError('UNKNOWN_GOTO_TARGET', `retry action "${name}" runs step "${action.stepId}", which workflow "${workflow.workflowId}" does not have`, action.pointer);
    plan.targetIndex = step;
  } else if (type === 'retry' && (action.stepId !== undefined || (action.workflowId !== undefined && target === undefined))) {
    const what = action.stepId !== undefined ? `step "${action.stepId}"` : `workflow "${action.workflowId}"`;
    plan.fails ??= refused(profile.refusals.retryTarget(name, what));
  }
  if (type === 'retry' && side === 'onSuccess') {
    throw new PlanError('RETRY_ON_SUCCESS', `retry action "${name}" cannot be a success action (Arazzo allows end and goto there)`, action.pointer);
  }
  if (criteria.length > 0) plan.criteriaText = criteria.map((c) => c.source);
  plan.label = actionLabel(side, plan, type, action.stepId, criteria);
  return plan;
}

/** An action's parameters as inputs: name and value template (a `$components.parameters` reference resolved; `in` is a validation error, ignored here). */
function compileActionInputs(doc: ArazzoDocument, action: Action, stepId: string, templates: TemplateOptions): ActionInputs {
  return action.parameters.map((entry) => {
    const parameter = resolveParameter(doc, entry, stepId);
    return { name: parameter.name ?? '', value: compileTemplate(parameter.value, [], templates) };
  });
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

function criterionAt(criterion: CriterionObject, stepId: string, options: CriteriaOptions): Criterion {
  try {
    return prepareCriterion(criterion, options);
  } catch (error) {
    throw new PlanError('BAD_CONDITION', `step "${stepId}": condition ${codeSpan(criterion.condition ?? '')}: ${(error as Error).message}`, criterion.pointer);
  }
}

/** `onFailure: retryLater (retry x3 after 2s) [$statusCode == 503]`, for graphs and traces. */
function actionLabel(side: Side, plan: ActionPlan, type: string, stepId: string | undefined, criteria: CriteriaSet): string {
  let what = type;
  if (type === 'retry') what = `retry x${plan.retryLimit}${plan.retryAfterSeconds > 0 ? ` after ${plan.retryAfterSeconds}s` : ''}`;
  if (type === 'goto') what = plan.workflow !== undefined ? `goto workflow ${plan.workflow}` : `goto ${stepId ?? '?'}`;
  if (type === 'retry' && plan.workflow !== undefined) what += `, running workflow ${plan.workflow} first`;
  if (type === 'retry' && plan.targetIndex !== undefined) what += `, running step ${stepId ?? '?'} first`;
  const guard = criteria.length > 0 ? ` [${criteria.map((c) => c.source).join(' && ')}]` : '';
  return `${side}: ${plan.name} (${what})${guard}`;
}
