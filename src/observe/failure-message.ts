import type { RunFailure } from '../../machines/types.js';

/**
 * Words a run failure for people, one line without the step id: what stderr, the trace's `end`
 * line and the live view show. The machine records failures as data; this is their only wording.
 */
export function failureMessage(failure: RunFailure): string {
  const message = ownMessage(failure);
  // A failure inside a nested call that stopped the run names the steps that led to it.
  return failure.via && failure.via.length > 0 ? `in nested step ${callPath(failure.via)}, step "${failure.stepId ?? ''}": ${message}` : message;
}

/** `"a" → "b"`, with the middle of a long path left out: `"a" → "a" → … 28 more … → "a" → "a"`. */
function callPath(via: readonly string[]): string {
  const shown = via.map((id) => `"${id}"`);
  return (shown.length <= 6 ? shown : [...shown.slice(0, 2), `… ${shown.length - 4} more …`, ...shown.slice(-2)]).join(' → ');
}

function ownMessage(failure: RunFailure): string {
  const reason = failure.crashed ? `internal error: ${failure.reason ?? ''}` : (failure.reason ?? 'the step failed');
  switch (failure.code) {
    case 'STEP_BUDGET_EXHAUSTED':
      return 'StepBudgetExhausted: the workflow used its budget of step runs (raise it with --tool-max-steps)';
    case 'END_ACTION':
      return `failure action "${failure.action}" ended the workflow: ${reason}`;
    case 'RETRIES_EXHAUSTED': {
      const limit = failure.retryLimit ?? 0;
      return `retry action "${failure.action}" reached its limit of ${limit} ${limit === 1 ? 'retry' : 'retries'}; last error: ${reason}`;
    }
    case 'STEP_FAILED':
      // With an action, that action's criteria could not be evaluated.
      return failure.action === undefined ? reason : `criteria of action "${failure.action}": ${failure.reason ?? 'cannot be evaluated'}`;
    case 'DEPTH_EXCEEDED':
      return `WorkflowDepthExceeded: a nested call would be ${failure.depth ?? 0} workflows deep, past the limit of ${failure.maxDepth ?? 0} (raise it with --tool-max-depth)`;
    case 'CALL_FAILED':
      if (failure.transferTo !== undefined) return `retry action "${failure.action}" ran workflow "${failure.workflow}", which ended by a goto to workflow "${failure.transferTo}"; a retry runs the workflow it names and does not follow a transfer`;
      return `retry action "${failure.action}" ran workflow "${failure.workflow}", which failed: ${failure.cause ? failureMessage(failure.cause) : 'no reason given'}`;
    case 'DEPENDENCY_FAILED': {
      const cause = failure.cause;
      const at = cause?.stepId === undefined ? '' : ` at step "${cause.stepId}"`;
      return `its dependency "${failure.workflow}" failed${at}: ${cause ? failureMessage(cause) : 'no reason given'}`;
    }
    default:
      // INTERNAL, and a planned failure (UNSUPPORTED: a construct the runner profile refuses): the reason says it all.
      return reason;
  }
}
