/**
 * Tells the reporter which Arazzo action fired, read from the machine's transitions as the trace
 * reads them (their `meta`, machines/chain-transitions.ts): the machine stays free of English, and
 * nothing here runs unless an action's transition is taken.
 */
import type { InspectionEvent } from 'xstate';
import { stepKey } from '../../machines/state-keys.js';
import type { ActionMeta, WorkflowContext, WorkflowPlan } from '../../machines/types.js';
import type { StepProgram } from './compile-steps.js';
import type { ActionNote } from './explain-lines.js';
import type { Reporter } from './reporter.js';

/** An inspection observer (`createActor(machine, { inspect })`) that reports each action that fires, and each retry that reaches its limit. */
export function createActionNarrator(plan: WorkflowPlan, programs: readonly StepProgram[], reporter: Pick<Reporter, 'action'>, workflows?: ReadonlyMap<string, { plan: WorkflowPlan; programs: readonly StepProgram[] }>): (event: InspectionEvent) => void {
  const entry = narrated(plan, programs);
  // v2: every workflow of the run, by key; an event is narrated with the plan of the machine that took it.
  const byKey = new Map([...(workflows ?? [])].map(([key, w]) => [key, narrated(w.plan, w.programs)] as const));
  return (event) => {
    if (event.type !== '@xstate.microstep') return;
    const context = (event.snapshot as unknown as { context?: WorkflowContext }).context;
    const { plan, programs, steps } = (context && byKey.get(context.key)) ?? entry;
    for (const transition of event._transitions ?? []) {
      const meta = transition.meta as ActionMeta | undefined;
      if (meta === undefined || (meta.outcome !== 'fired' && meta.outcome !== 'limitReached')) continue;
      const index = steps.get(transition.source.path[0] ?? '');
      const step = index === undefined ? undefined : plan.steps[index];
      if (index === undefined || step === undefined) continue;
      // The chain's own plan of the action: its criteria, target and limit.
      const chain = [...step.onSuccess, ...step.onFailure];
      const action =
        chain.find((a) => a.name === meta.action && a.type === meta.actionType && a.label === transition.description) ??
        chain.find((a) => a.name === meta.action && a.type === meta.actionType);
      const criteria = action?.criteriaId === undefined ? [] : (programs[index]?.actionCriteria[action.criteriaId] ?? []).map((criterion) => criterion.source);
      const note: ActionNote = { action: meta.action, type: meta.actionType, criteria };
      if (meta.actionType === 'goto' && action?.targetIndex !== undefined) note.target = plan.steps[action.targetIndex]?.stepId;
      if (meta.actionType === 'goto' && action?.workflow !== undefined) note.target = `workflow ${action.workflow}`;
      if (meta.actionType === 'retry') {
        note.limit = action?.retryLimit;
        if (meta.outcome === 'limitReached') note.limitReached = true;
        else {
          // The transition's actions have run: the context holds this retry's number and wait.
          note.retry = context?.retries;
          note.delayMs = context?.retryDelayMs;
        }
      }
      reporter.action(context && context.via.length > 0 ? `${context.via.join('/')}/${step.stepId}` : step.stepId, note);
    }
  };
}

/** A plan with its steps' indexes by state key. */
function narrated(plan: WorkflowPlan, programs: readonly StepProgram[]) {
  const steps = new Map<string, number>();
  plan.steps.forEach((step, index) => steps.set(stepKey(index, step.stepId), index));
  return { plan, programs, steps };
}
