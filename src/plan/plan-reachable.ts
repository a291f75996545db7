/**
 * The plans of every workflow a v2 run of one workflow can reach, for drawing: the same
 * reachability as prepareRun (nested steps, gotos to workflows, retries that run a workflow), but
 * planned with planWorkflow alone, so nothing is bound, read or fetched.
 */
import type { WorkflowPlan } from '../../machines/types.js';
import type { ArazzoDocument, Workflow } from '../arazzo/model.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { applyRunSemantics, planWorkflow } from './plan-workflow.js';
import { calledBy, transferClosure } from './prepare-run.js';

/** Plans `entry` and every workflow it can reach, by key, entry first. Throws PlanError as planWorkflow does. */
export function planReachable(doc: ArazzoDocument, entry: Workflow, criteria: CriteriaOptions): Map<string, WorkflowPlan> {
  const plans = new Map<string, { plan: WorkflowPlan }>();
  const queue = [entry.workflowId ?? ''];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (plans.has(key)) continue;
    const workflow = doc.workflows.find((w) => w.workflowId === key);
    if (!workflow) continue;
    const { plan } = planWorkflow(doc, workflow, criteria);
    plan.key = key;
    applyRunSemantics(plan, criteria.profile);
    plans.set(key, { plan });
    queue.push(...calledBy(plan));
  }
  for (const { plan } of plans.values()) {
    for (const step of plan.steps) if (step.call) step.call.transfers = [...transferClosure(step.call.workflow, plans)];
  }
  return new Map([...plans].map(([key, { plan }]) => [key, plan]));
}
