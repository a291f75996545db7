/** Predictable state keys, so graphs, traces and tests read the same names. */

/** Key of step `index`'s state: `s<index>_<stepId with anything but [A-Za-z0-9_] as _>`. */
export function stepKey(index: number, stepId: string): string {
  return `s${index}_${stepId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Absolute target of a step's state, or of one of its sub-states. */
export function stepTarget(index: number, stepId: string, sub?: string): string {
  return `#workflow.${stepKey(index, stepId)}${sub ? `.${sub}` : ''}`;
}

export const SUCCEEDED = '#workflow.succeeded';
export const FAILED = '#workflow.failed';
