/**
 * Tells the reporter which Arazzo action fired, from the `action.fired` events of the run's stream
 * (the transitions' `meta`, machines/chain-transitions.ts): the machine stays free of English, and
 * nothing here runs unless an action's transition is taken.
 */
import { stepKey } from '../../machines/state-keys.js';
import type { WorkflowPlan } from '../../machines/types.js';
import type { ActionNote } from './explain-lines.js';
import type { Reporter } from './reporter.js';
import type { ActionFired } from './run-events.js';

/** What the narrator reads of a step's program: the sources of its action criteria, by criteria id. */
export interface NarratedProgram {
  actionCriteria: ReadonlyArray<ReadonlyArray<{ source: string }>>;
}

/** The workflows of a v2 run by key: their plans and programs. */
export type NarratedWorkflows = ReadonlyMap<string, { plan: WorkflowPlan; programs: readonly NarratedProgram[] }>;

/** An `action.fired` listener that reports each action that fires, and each retry that reaches its limit. */
export function createActionNarrator(plan: WorkflowPlan, programs: readonly NarratedProgram[], reporter: Pick<Reporter, 'action'>, workflows?: NarratedWorkflows): (event: ActionFired) => void {
  const entry = narrated(plan, programs);
  // v2: every workflow of the run, by key; an event is narrated with the plan of the machine that took it.
  const byKey = new Map([...(workflows ?? [])].map(([key, w]) => [key, narrated(w.plan, w.programs)] as const));
  return ({ meta, stateKey, label, context }) => {
    if (meta.outcome !== 'fired' && meta.outcome !== 'limitReached') return;
    const { plan, programs, steps } = byKey.get(context.key) ?? entry;
    const index = steps.get(stateKey);
    const step = index === undefined ? undefined : plan.steps[index];
    if (index === undefined || step === undefined) return;
    // The chain's own plan of the action: its criteria, target and limit.
    const chain = [...step.onSuccess, ...step.onFailure];
    const action = chain.find((a) => a.name === meta.action && a.type === meta.actionType && a.label === label) ?? chain.find((a) => a.name === meta.action && a.type === meta.actionType);
    const criteria = action?.criteriaId === undefined ? [] : (programs[index]?.actionCriteria[action.criteriaId] ?? []).map((criterion) => criterion.source);
    const note: ActionNote = { action: meta.action, type: meta.actionType, criteria };
    if (meta.actionType === 'goto' && action?.targetIndex !== undefined) note.target = plan.steps[action.targetIndex]?.stepId;
    if (meta.actionType === 'goto' && action?.workflow !== undefined) note.target = `workflow ${action.workflow}`;
    if (meta.actionType === 'retry') {
      note.limit = action?.retryLimit;
      if (meta.outcome === 'limitReached') note.limitReached = true;
      else {
        // The transition's actions have run: the context holds this retry's number and wait.
        note.retry = context.retries;
        note.delayMs = context.retryDelayMs;
      }
    }
    reporter.action(context.via.length > 0 ? `${context.via.join('/')}/${step.stepId}` : step.stepId, note);
  };
}

/** A plan with its steps' indexes by state key. */
function narrated(plan: WorkflowPlan, programs: readonly NarratedProgram[]) {
  const steps = new Map<string, number>();
  plan.steps.forEach((step, index) => steps.set(stepKey(index, step.stepId), index));
  return { plan, programs, steps };
}
