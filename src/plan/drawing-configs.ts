/** The machine `arazzo graph --level machine` and `--format json` draw: a workflow compiled with a judge that is never called. */
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
  actionInputs: () => {
    throw new Error('graphs do not evaluate action parameters');
  },
  workflowOutputs: () => {
    throw new Error('graphs do not evaluate outputs');
  },
};

/** The machine `plan` compiles to, for drawing only: its judge throws if the machine is ever run. */
export function drawingMachine(plan: WorkflowPlan) {
  return compileWorkflow(plan, NEVER_JUDGES);
}
