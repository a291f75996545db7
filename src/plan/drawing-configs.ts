/** Machine configs for drawing: workflows compiled with a judge that is never called. */
import { compileWorkflow } from '../../machines/compile-workflow.js';
import type { Judge, WorkflowPlan } from '../../machines/types.js';

const NEVER_JUDGES: Judge = {
  // Drawing never runs the machine; a call here would be a bug.
  criteriaHold: () => {
    throw new Error('graphs do not evaluate criteria');
  },
  criteriaError: () => {
    throw new Error('graphs do not evaluate criteria');
  },
  workflowOutputs: () => {
    throw new Error('graphs do not evaluate outputs');
  },
};

/** The machine `plan` compiles to, for drawing only: its judge throws if the machine is ever run. */
export function drawingMachine(plan: WorkflowPlan) {
  return compileWorkflow(plan, NEVER_JUDGES);
}

/** The machine config (`machine.config`) of each plan, by the same key. */
export function drawingConfigs(plans: ReadonlyMap<string, WorkflowPlan>): Map<string, object> {
  return new Map([...plans].map(([key, plan]) => [key, drawingMachine(plan).config as object]));
}
