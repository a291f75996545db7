/**
 * The machine a nested call invokes for a workflow with dependsOn (machines/depends-on.ts): the
 * dependencies run first, to their end (transfers included), once per run, and their failure
 * fails the call before the workflow's first step. Fake step runners, no HTTP.
 */
import { describe, expect, it } from '@jest/globals';
import { createActor, waitFor } from 'xstate';
import { callActorName, compileWorkflow, type StepRunner } from '../../machines/compile-workflow.js';
import { bodyActorName, compileDependent } from '../../machines/depends-on.js';
import type { StepRecord, WorkflowPlan, WorkflowResult } from '../../machines/types.js';
import { action, judgeOf, step } from './harness.js';

/** caller calls `child` twice; child depends on `dep`, which transfers to `depEnd`. */
function machines(statuses: Record<string, number>) {
  const ran: string[] = [];
  const judged: WorkflowResult[] = [];
  const runner: StepRunner = async (input) => {
    if (input.phase === 'call') return { statusCode: 0, ok: false, dryRun: false, outputs: {}, call: { inputs: { from: 'caller' } } };
    if (input.phase === 'judge') {
      judged.push(input.result!);
      return { statusCode: 0, ok: input.result?.status === 'succeeded', dryRun: false, outputs: {} };
    }
    ran.push(input.stepId);
    const status = statuses[input.stepId] ?? 200;
    return { statusCode: status, ok: status < 400, dryRun: false, outputs: {} };
  };
  const plans: Record<string, WorkflowPlan> = {
    caller: { workflowId: 'caller', steps: [step('first', { call: { workflow: 'child', transfers: [] } }), step('second', { call: { workflow: 'child', transfers: [] } })] },
    child: { workflowId: 'child', steps: [step('work')], dependsOn: [{ workflow: 'dep', transfers: ['depEnd'] }] },
    dep: { workflowId: 'dep', steps: [step('prepare', { onSuccess: [action('goto', { workflow: 'depEnd' })], onSuccessFrom: 'step' })] },
    depEnd: { workflowId: 'depEnd', steps: [step('finish')] },
  };
  const calls: Record<string, unknown> = {};
  for (const [key, plan] of Object.entries(plans)) {
    const machine = compileWorkflow(plan, judgeOf([], () => ({ ended: key })), runner, calls);
    if (plan.dependsOn) {
      calls[bodyActorName(key)] = machine;
      calls[callActorName(key)] = compileDependent(plan, calls);
    } else calls[callActorName(key)] = machine;
  }
  const caller = compileWorkflow(plans.caller!, judgeOf([]), runner, calls);
  return { caller, ran, judged };
}

async function run(statuses: Record<string, number> = {}) {
  const { caller, ran, judged } = machines(statuses);
  const actor = createActor(caller, { input: { inputs: {}, maxSteps: 100 } });
  actor.start();
  const snapshot = await waitFor(actor, (s) => s.status === 'done');
  return { snapshot, ran, judged, records: snapshot.context.records as StepRecord[] };
}

describe('a nested call of a workflow with dependsOn', () => {
  it('runs the dependency to its end, transfer included, before the first call only', async () => {
    const { snapshot, ran, records } = await run();
    expect(snapshot.value).toBe('succeeded');
    expect(ran).toEqual(['prepare', 'finish', 'work', 'work']);
    expect(records[0]!.dependencies).toEqual([
      {
        workflowId: 'dep',
        outputs: { ended: 'depEnd' },
        steps: [expect.objectContaining({ stepId: 'prepare' }), expect.objectContaining({ stepId: 'finish' })],
        transfers: [{ from: 'dep', stepId: 'prepare', to: 'depEnd' }],
      },
    ]);
    expect(records[1]!.dependencies).toBeUndefined();
    expect(snapshot.context.run.completed).toMatchObject({ dep: true, depEnd: true, child: true });
  });

  it('fails the call with DEPENDENCY_FAILED when the dependency fails; the workflow does not run', async () => {
    const { snapshot, ran, judged, records } = await run({ finish: 500 });
    expect(snapshot.value).toBe('failed');
    expect(ran).toEqual(['prepare', 'finish']);
    expect(judged[0]).toMatchObject({ workflowId: 'child', status: 'failed', records: [], failure: { code: 'DEPENDENCY_FAILED', workflow: 'dep', cause: { code: 'STEP_FAILED', stepId: 'finish' } } });
    expect(records[0]!.dependencies?.map((d) => [d.workflowId, d.outputs])).toEqual([['dep', {}]]);
  });
});
