/** Predictable state keys, so graphs, traces and tests read the same names. */

/**
 * Keys of a step's sub-states. Only a step whose failure chain can retry it has sub-states:
 * `calling`, where it runs, and `backoff`, where it waits before running again. Every other step
 * is one atomic state (docs/state-machine.md).
 */
export const SUB_STATE = {
  calling: 'calling',
  backoff: 'backoff',
} as const;

export type SubState = (typeof SUB_STATE)[keyof typeof SUB_STATE];

/** Key of step `index`'s state: `s<index>_<stepId with anything but [A-Za-z0-9_] as _>`. */
export function stepKey(index: number, stepId: string): string {
  return `s${index}_${stepId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Absolute target of a step's state, or of one of its sub-states. */
export function stepTarget(index: number, stepId: string, sub?: SubState): string {
  return `#workflow.${stepKey(index, stepId)}${sub ? `.${sub}` : ''}`;
}

export const SUCCEEDED = '#workflow.succeeded';
export const FAILED = '#workflow.failed';
