/** The live view's facts: one per transition, with the step run it judged, the chart edge it took and the action on it. */
import { describe, expect, it } from '@jest/globals';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import { stepsChart } from '../../../src/draw/steps-chart.js';
import type { StepOutcome, WorkflowPlan } from '../../../machines/types.js';
import type { HttpRequest } from '../../../src/http/types.js';
import type { CriterionExplanation } from '../../../src/observe/explain-lines.js';
import { createLiveFeed, type LiveFact, type LiveFeed } from '../../../src/observe/live-feed.js';
import { action, judgeOf, step, withRunner } from '../../machines/harness.js';

const SECRET = 's3cret-value';

/** a: 503 then 200 (retry `busy`); b: 202 then 200 (goto `poll` to itself on 202); c: 402, so the workflow fails. */
const plan: WorkflowPlan = {
  workflowId: 'wf',
  steps: [
    step('a', { onFailure: [action('retry', { name: 'busy', retryLimit: 2, retryAfterSeconds: 0.5, criteriaId: 0 })] }),
    step('b', { onSuccess: [action('goto', { name: 'poll', targetIndex: 1, criteriaId: 1 })] }),
    step('c'),
  ],
};
const STATUSES: Record<string, number[]> = { a: [503, 200], b: [202, 200], c: [402] };

/** Runs the plan on a simulated clock and returns every fact the feed made. */
async function facts(maxSteps = 100, feedFor?: () => LiveFeed): Promise<{ facts: LiveFact[]; feed: LiveFeed }> {
  const judge = judgeOf([(s) => s === 503, (s) => s === 202]);
  const seen = new Map<string, number>();
  const compiled = compileWorkflow(plan, judge);
  const machine = withRunner(compiled, async (input): Promise<StepOutcome> => {
    const n = seen.get(input.stepId) ?? 0;
    seen.set(input.stepId, n + 1);
    const statuses = STATUSES[input.stepId]!;
    const status = statuses[Math.min(n, statuses.length - 1)]!;
    const ok = status < 400;
    return { statusCode: status, ok, dryRun: false, outputs: {}, ...(ok ? {} : { reason: `HTTP ${status} (sent ${SECRET})` }) };
  });
  const feed = feedFor?.() ?? createLiveFeed(stepsChart(plan), { mask: (text) => text.replaceAll(SECRET, '***'), now: () => 1000 });
  const made: LiveFact[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(machine, {
    input: { inputs: {}, maxSteps },
    clock,
    inspect: (event) => {
      const fact = feed.observe(event);
      if (fact) made.push(fact);
    },
  });
  actor.start();
  await waitFor(actor, (s) => s.matches('s0_a.backoff'));
  clock.increment(500);
  await waitFor(actor, (s) => s.status === 'done');
  return { facts: made, feed };
}

describe('createLiveFeed', () => {
  it('makes one fact per transition, numbered, from the first state to the end', async () => {
    const { facts: made } = await facts();
    expect(made.map((f) => [f.n, f.from, f.to, f.event])).toEqual([
      [1, '', 's0_a.calling', 'start'],
      [2, 's0_a.calling', 's0_a.backoff', 'step done'],
      [3, 's0_a.backoff', 's0_a.calling', 'retry wait over'],
      [4, 's0_a.calling', 's1_b', 'step done'],
      [5, 's1_b', 's1_b', 'step done'],
      [6, 's1_b', 's2_c', 'step done'],
      [7, 's2_c', 'failed', 'step done'],
    ]);
  });

  it('counts each step run and keeps its latest status and reason, secrets masked', async () => {
    const { facts: made } = await facts();
    expect(made.map((f) => f.step && [f.step.stepId, f.step.runs, f.step.status, f.step.ok, f.step.reason])).toEqual([
      undefined,
      ['a', 1, 503, false, 'HTTP 503 (sent ***)'],
      undefined,
      ['a', 2, 200, true, undefined],
      ['b', 1, 202, true, undefined],
      ['b', 2, 200, true, undefined],
      ['c', 1, 402, false, 'HTTP 402 (sent ***)'],
    ]);
    expect(JSON.stringify(made)).not.toContain(SECRET);
  });

  it('names the chart edge each step run took and the action that fired on it', async () => {
    const { facts: made } = await facts();
    expect(made.map((f) => f.edge && [f.edge.id, f.edge.taken, f.edge.label, f.edge.action])).toEqual([
      ['edge-start-s0_a', 1, '', undefined],
      ['edge-s0_a-s0_a-fail', 1, 'busy: retry 1 of 2', 'busy'],
      undefined,
      ['edge-s0_a-s1_b', 1, 'next step', undefined],
      ['edge-s1_b-s1_b', 1, 'poll: goto b', 'poll'],
      ['edge-s1_b-s2_c', 1, 'next step', undefined],
      ['edge-s2_c-failed-fail', 1, 'fail', undefined],
    ]);
  });

  it('says when a retry runs, and how the run ended', async () => {
    const { facts: made } = await facts();
    expect(made[1]).toMatchObject({ retryDelayMs: 500, retryAt: 1500, retries: 1 });
    expect(made.slice(0, -1).every((f) => f.end === undefined)).toBe(true);
    expect(made.at(-1)!.end).toEqual({ status: 'failed', failure: { code: 'STEP_FAILED', stepId: 'c', message: 'HTTP 402 (sent ***)' } });
  });

  it('counts the retries of the whole run, not only those of the step it is on', async () => {
    const { facts: made } = await facts();
    expect(made.map((f) => f.retries)).toEqual([0, 1, 1, 1, 1, 1, 1]);
  });

  it('puts the explanation of a failed run (criteria and operands, masked, printable) with its step and the failure', async () => {
    const feed = createLiveFeed(stepsChart(plan), { mask: (text) => text.replaceAll(SECRET, '***'), now: () => 1000 });
    const criteria: CriterionExplanation[] = [
      { source: '$statusCode == 200', kind: 'simple', holds: false, comparisons: [{ source: '$statusCode == 200', left: 402, op: '==', right: 200, holds: false }] },
      { source: '$response.body#/note == "ok"', kind: 'simple', holds: false, comparisons: [{ source: '$response.body#/note == "ok"', left: `${SECRET}\u001b[2J`, op: '==', right: 'ok', holds: false }] },
    ];
    // The executor explains a failed run before the machine judges it.
    expect(feed.take({ type: 'step.explained', stepId: 'c', exchange: { request: { method: 'GET', url: 'http://api.test/c', headers: {} } as unknown as HttpRequest, ok: false, criteria: () => criteria } })).toBeUndefined();
    const { facts: made } = await facts(100, () => feed);
    // The escape sequence shows as JSON writes it: text, not a control character.
    const explain = ['$statusCode == 200  →  402 == 200  false', '$response.body#/note == "ok"  →  "***\\u001b[2J" == "ok"  false'];
    expect(made.find((f) => f.step?.stepId === 'c')!.step!.explain).toEqual(explain);
    expect(made.at(-1)!.end!.failure!.explain).toEqual(explain);
    expect(made.filter((f) => f.step?.stepId === 'a').map((f) => f.step!.explain)).toEqual([undefined, undefined]);
  });

  it('sums up the latest state of every step and edge for a viewer that connects late', async () => {
    const { feed } = await facts();
    const { steps, edges } = feed.summary();
    expect(steps.map((s) => [s.stepId, s.runs, s.status, s.ok])).toEqual([
      ['a', 2, 200, true],
      ['b', 2, 200, true],
      ['c', 1, 402, false],
    ]);
    expect(edges.map((e) => [e.id, e.taken])).toEqual([
      ['edge-start-s0_a', 1],
      ['edge-s0_a-s0_a-fail', 1],
      ['edge-s0_a-s1_b', 1],
      ['edge-s1_b-s1_b', 1],
      ['edge-s1_b-s2_c', 1],
      ['edge-s2_c-failed-fail', 1],
    ]);
  });

  it('does not count a run the step budget stopped, and labels its edge', async () => {
    const { facts: made } = await facts(1);
    expect(made.at(-1)!.step).toBeUndefined();
    // The machine's own transition leaves the state the run was in: the retrying step's calling sub-state.
    expect(made.at(-1)).toMatchObject({ from: 's0_a.calling', to: 'failed', event: 'step budget spent', end: { status: 'failed', failure: { code: 'STEP_BUDGET_EXHAUSTED' } } });
    expect(made.map((f) => f.edge?.label)).toEqual(['', 'busy: retry 1 of 2', undefined, 'step budget spent']);
  });

  it('follows only the top-level actor of the workflow it draws (a v2 run also runs dependencies)', async () => {
    let shared: LiveFeed | undefined;
    const feedFor = () => (shared ??= createLiveFeed(stepsChart(plan), { workflowId: 'wf' }));
    const other = compileWorkflow({ workflowId: 'other', steps: [step('dependency')] }, judgeOf([]), async () => ({ statusCode: 200, ok: true, dryRun: false, outputs: {} }));
    const made: LiveFact[] = [];
    const dependency = createActor(other, {
      input: { inputs: {}, maxSteps: 10 },
      inspect: (event) => {
        const fact = feedFor().observe(event);
        if (fact) made.push(fact);
      },
    });
    dependency.start();
    await waitFor(dependency, (s) => s.status === 'done');
    expect(made).toEqual([]);
    const { facts: followed } = await facts(100, feedFor);
    expect(followed.map((f) => f.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The same workflow run again as another top-level actor (its session id is x:0 again, in a system of its own): not followed.
    const again = compileWorkflow(plan, judgeOf([() => false, () => false]), async () => ({ statusCode: 200, ok: true, dryRun: false, outputs: {} }));
    const later = createActor(again, { input: { inputs: {}, maxSteps: 10 }, inspect: (event) => expect(shared!.observe(event)).toBeUndefined() });
    later.start();
    await waitFor(later, (s) => s.status === 'done');
  });
});

describe('createLiveFeed on a receive in flight (Arazzo 1.1)', () => {
  it('colours the launch, the steps that run meanwhile and the join: every state it names is a node of the steps chart', async () => {
    const inFlight: WorkflowPlan = { workflowId: 'order', steps: [step('send'), step('confirm', { inFlight: { joinAt: 3 } }), step('other'), step('status')] };
    const chart = stepsChart(inFlight);
    const feed = createLiveFeed(chart, { mask: (text) => text, now: () => 1000 });
    const machine = withRunner(compileWorkflow(inFlight, judgeOf([])), async (): Promise<StepOutcome> => ({ statusCode: 0, ok: true, dryRun: false, outputs: {} }));
    const made: LiveFact[] = [];
    const actor = createActor(machine, { input: { inputs: {}, maxSteps: 100 }, clock: new SimulatedClock(), inspect: (event) => {
        const fact = feed.observe(event);
        if (fact) made.push(fact);
      },
    });
    actor.start();
    await waitFor(actor, (s) => s.status === 'done');
    const path = made.map((f) => f.to).filter((to, i, all) => all.indexOf(to) === i);
    expect(path).toEqual(['s0_send', 's1_confirm_launch', 's2_other', 's1_confirm', 's3_status', 'succeeded']);
    const nodes = new Set(chart.nodes.map((node) => node.id));
    for (const to of path) expect(nodes.has(to)).toBe(true);
  });
});
