/** Which step (and output) an expression names, for the validator's unknown-step checks. */
import type { Expression } from './ast.js';

export interface StepReference {
  stepId: string;
  /** Set for `$steps.<id>.outputs.<name>`. */
  output?: string;
}

/** The step id (and output name) a `$steps.…` expression refers to; undefined for every other form. */
export function stepReferences(expr: Expression): StepReference | undefined {
  switch (expr.kind) {
    case 'stepOutputs':
      return { stepId: expr.stepId, output: expr.name };
    case 'stepRequest':
    case 'stepResponse':
      return { stepId: expr.stepId };
    default:
      return undefined;
  }
}
