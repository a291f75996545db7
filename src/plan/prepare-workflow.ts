import type { WorkflowPlan } from '../../machines/types.js';
import type { ArazzoDocument, Workflow } from '../arazzo/model.js';
import { DEFAULT_PROFILE } from '../arazzo/runner-profile.js';
import type { TemplateWarning } from '../expressions/template-ast.js';
import type { BoundSource } from './bind-sources.js';
import { compileStep, documentScope, stepsWithDataRead, type StepProgram } from './compile-steps.js';
import { compileOutputs, type CompiledOutputs } from './output-values.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { optionalInputs } from './optional-inputs.js';
import { documentUri, readsSelectors, templateOptionsFor } from './template-options.js';
import { planStep, stepIndexOf, type WorkflowKeyOf } from './plan-workflow.js';
import type { WorkflowKeys } from './workflows-view.js';
import { markInFlight } from './step-order.js';
import type { AsyncSource } from './async-sources.js';

/** A workflow ready to run: the machine's plan, and each step's program for the effects (`programs[i]` is `plan.steps[i]`'s). */
export interface PreparedWorkflow {
  plan: WorkflowPlan;
  programs: StepProgram[];
  /** The workflow's outputs, evaluated when it succeeds. */
  outputs: CompiledOutputs;
}

/**
 * Prepares a workflow in one pass over its steps: each step is planned for the machine
 * (plan-workflow.ts: chains, goto targets, what the profile refuses, criteria) and compiled for the
 * effects (compile-steps.ts: operation, base URL, templates, outputs), and the two are kept side
 * by side. Template warnings are appended to `warnings`. `criteria` says which runner profile
 * plans the steps and gives the criterion libraries. `calls` gives the keys of the workflows the
 * steps name (planStep's `keyOf`) and, for an Arazzo source's workflow, the keys `$workflows`
 * reads; `text` is the document's text, when it was read from one (a faster search for the steps
 * whose request or response a later expression reads), `location` where it was read (`$self`). Throws PlanError or StepPreparationError before any request is sent.
 */
export function prepareWorkflow(
  doc: ArazzoDocument,
  workflow: Workflow,
  sources: BoundSource[],
  warnings: TemplateWarning[],
  criteria: CriteriaOptions = { profile: DEFAULT_PROFILE },
  calls: { keyOf?: WorkflowKeyOf; workflowKeys?: WorkflowKeys; text?: string; location?: string; asyncSources?: readonly AsyncSource[] } = {},
): PreparedWorkflow {
  const index = stepIndexOf(workflow);
  const dataRead = stepsWithDataRead(doc, workflow, calls.text);
  const arazzo11 = readsSelectors(criteria.profile);
  const templates = templateOptionsFor(criteria.profile, criteria.libraries);
  const scope = documentScope(doc, sources, arazzo11);
  if (calls.workflowKeys) scope.workflowKeys = calls.workflowKeys;
  const self = arazzo11 ? documentUri(doc.self, calls.location) : undefined;
  if (self !== undefined) scope.self = self;
  const optional = criteria.profile.typesInputs ? optionalInputs(doc, workflow) : undefined;
  const steps = [];
  const programs: StepProgram[] = [];
  for (const [i, step] of workflow.steps.entries()) {
    const stepId = step.stepId ?? '';
    const program: StepProgram = {
      stepId,
      index: i,
      parameters: [],
      successCriteria: [],
      skippedCriteria: [],
      actionCriteria: [],
      outputs: [],
      dataRead: dataRead(stepId),
      scope,
    };
    steps.push(compactLists(planStep(doc, workflow, step, index, program, criteria, calls.keyOf)));
    compileStep(doc, workflow, step, sources, program, warnings, criteria.profile, templates, calls.asyncSources);
    if (optional !== undefined && optional.size > 0) program.optionalInputs = optional;
    programs.push(compactLists(program));
  }
  markInFlight(workflow, steps, criteria.profile);
  const outputs = compileOutputs(workflow.outputs, `${workflow.pointer}/outputs`, warnings, templates);
  return { plan: { workflowId: workflow.workflowId ?? '', steps }, programs, outputs };
}

/** One frozen empty list for every empty list a plan or program keeps for the whole run (most steps have no actions, skipped or action criteria). */
const NONE = Object.freeze([]) as unknown as never[];

const LISTS = ['onSuccess', 'onFailure', 'skippedCriteria', 'actionCriteria', 'actionInputs', 'parameters', 'successCriteria'] as const;

/**
 * `value` with its lists (those of LISTS it has) made as small as they can be: an empty one is the
 * shared NONE, any other a copy of its own length. A list built with `push` keeps room for 17
 * items, and a plan and a program live as long as the run.
 */
function compactLists<T extends object>(value: T): T {
  const lists = value as Partial<Record<(typeof LISTS)[number], unknown[]>>;
  for (let i = 0; i < LISTS.length; i++) {
    const name = LISTS[i]!;
    const list = lists[name];
    if (list !== undefined) lists[name] = list.length === 0 ? NONE : list.slice();
  }
  return value;
}
