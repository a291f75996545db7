import { describe, expect, it } from '@jest/globals';
import { createMachine } from 'xstate';
import { compileWorkflow } from '../../machines/compile-workflow.js';
import { ChartReadError, readChart, toDot, toMermaid, toStatelyJson } from '../../machines/graph/index.js';
import type { WorkflowPlan } from '../../machines/types.js';
import { action, judgeOf, step } from './harness.js';

const retryThenGoto: WorkflowPlan = {
  workflowId: 'wf',
  steps: [
    step('first-step'),
    step('pay', {
      onFailure: [
        action('retry', { name: 'busy', retryLimit: 3, retryAfterSeconds: 2, criteriaId: 0, label: 'onFailure: busy (retry x3 after 2s) [$statusCode == 503]' }),
        action('goto', { name: 'again', targetIndex: 0, label: 'onFailure: again (goto first-step) [$statusCode < 500; <b>]' }),
      ],
    }),
    step('poll', { onSuccess: [action('goto', { name: 'wait', targetIndex: 2, label: 'onSuccess: wait (goto poll)' })] }),
  ],
};

const machine = compileWorkflow(retryThenGoto, judgeOf([() => true]));

describe('readChart', () => {
  it('reads a state per step with only the sub-states it needs, and the two finals', () => {
    const chart = readChart(machine.config);
    expect(chart.root.children.map((s) => [s.key, s.kind])).toEqual([
      ['s0_first_step', 'compound'],
      ['s1_pay', 'compound'],
      ['s2_poll', 'compound'],
      ['succeeded', 'final'],
      ['failed', 'final'],
    ]);
    expect(chart.root.children[0]!.stepId).toBe('first-step');
    const subStates = chart.root.children.map((s) => s.children.map((c) => c.key));
    expect(subStates).toEqual([
      ['entering', 'calling'],
      ['entering', 'calling', 'onFailure', 'backoff'],
      ['entering', 'calling', 'onSuccess'],
      [],
      [],
    ]);
  });

  it('keeps the eventless transitions that machine.toJSON() drops, in first-match order', () => {
    const chart = readChart(machine.config);
    const fromFailure = chart.edges.filter((e) => e.from.join('.') === 's1_pay.onFailure');
    expect(fromFailure.map((e) => [e.to.join('.'), e.label])).toEqual([
      ['s1_pay.backoff', '(1) onFailure: busy (retry x3 after 2s) [$statusCode == 503]'],
      ['failed', '(2) onFailure: busy (retry x3 after 2s) [$statusCode == 503] (limitReached)'],
      ['s0_first_step', '(3) onFailure: again (goto first-step) [$statusCode < 500; <b>]'],
      ['failed', '(4) else / recordStep, fail(STEP_FAILED)'],
    ]);
  });

  it('labels internal transitions with their trigger, guard and actions', () => {
    const labels = readChart(machine.config).edges.filter((e) => e.from[0] === 's0_first_step').map((e) => e.label);
    expect(labels).toEqual([
      '(1) [budgetSpent] / fail(STEP_BUDGET_EXHAUSTED)',
      '(2) else / countRun',
      '(1) runStep.done [wasDryRun] / storeOutcome, recordStep',
      '(2) runStep.done [stepSucceeded] / storeOutcome, recordStep',
      '(3) runStep.done else / storeOutcome, recordStep, fail(STEP_FAILED)',
      'runStep.error / storeCrash, recordStep, fail(STEP_FAILED)',
    ]);
  });

  it('judges the outcome on leaving calling, going straight on when the step has no chain on that side', () => {
    const fromCalling = (key: string) =>
      readChart(machine.config).edges.filter((e) => e.from.join('.') === `${key}.calling`).map((e) => [e.to.join('.'), e.label]);
    expect(fromCalling('s0_first_step').map(([to]) => to)).toEqual(['s1_pay', 's1_pay', 'failed', 'failed']);
    expect(fromCalling('s1_pay')).toEqual([
      ['s2_poll', '(1) runStep.done [wasDryRun] / storeOutcome, recordStep'],
      ['s2_poll', '(2) runStep.done [stepSucceeded] / storeOutcome, recordStep'],
      ['s1_pay.onFailure', '(3) runStep.done else / storeOutcome'],
      ['s1_pay.onFailure', 'runStep.error / storeCrash'],
    ]);
    expect(fromCalling('s2_poll')).toEqual([
      ['succeeded', '(1) runStep.done [wasDryRun] / storeOutcome, recordStep'],
      ['s2_poll.onSuccess', '(2) runStep.done [stepSucceeded] / storeOutcome'],
      ['failed', '(3) runStep.done else / storeOutcome, recordStep, fail(STEP_FAILED)'],
      ['failed', 'runStep.error / storeCrash, recordStep, fail(STEP_FAILED)'],
    ]);
  });

  it('gives a step it cannot run only entering and calling, which fails', () => {
    const plan: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { unsupported: 'nested workflows are not supported', onFailure: [action('retry')] })] };
    const chart = readChart(compileWorkflow(plan, judgeOf([])).config);
    expect(chart.root.children[0]!.children.map((s) => s.key)).toEqual(['entering', 'calling']);
    expect(chart.edges.filter((e) => e.from.join('.') === 's0_nested.calling').map((e) => [e.to.join('.'), e.label])).toEqual([
      ['failed', '/ fail(UNSUPPORTED)'],
    ]);
  });

  it('marks as unreachable only the states no transition can enter', () => {
    const unreachableIn = (config: object): string[] => {
      const found: string[] = [];
      const visit = (s: ReturnType<typeof readChart>['root']): void => {
        if (s.unreachable) found.push(s.path.join('.'));
        s.children.forEach(visit);
      };
      visit(readChart(config).root);
      return found;
    };
    expect(unreachableIn(machine.config)).toEqual([]);
    // Nothing enters what follows a step that always fails (v1 cannot run it) unless a goto does.
    const plan: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { unsupported: 'nested workflows are not supported' }), step('after')] };
    expect(unreachableIn(compileWorkflow(plan, judgeOf([])).config)).toEqual(['s1_after.entering', 's1_after.calling', 'succeeded']);
  });

  it('refuses a target in another machine', () => {
    const config = { id: 'm', initial: 'a', states: { a: { always: { target: '#elsewhere.b' } } } };
    expect(() => readChart(config)).toThrow(ChartReadError);
  });
});

describe('toMermaid', () => {
  const text = toMermaid(machine.config);

  it('is a stateDiagram-v2 with a composite state per step', () => {
    expect(text.startsWith('stateDiagram-v2\n  %% Arazzo workflow wf\n  [*] --> s0_first_step\n')).toBe(true);
    expect(text).toContain('  state "s0_first_step (first-step)" as s0_first_step {\n    [*] --> s0_first_step__entering\n');
    expect(text).toContain('  state s1_pay {\n');
    expect(text).toContain('    s1_pay__calling : entry / startRun\n');
    expect(text).toContain('  succeeded : entry / computeOutputs\n  succeeded --> [*]\n');
    expect(text).toContain('  failed --> [*]\n');
  });

  it('draws a transition inside the step that holds both ends, and lands gotos on the initial sub-state', () => {
    expect(text).toContain('    s1_pay__onFailure --> s1_pay__backoff : (1) onFailure: busy (retry x3 after 2s) [$statusCode == 503]\n');
    expect(text).toContain('    s2_poll__onSuccess --> s2_poll__entering : (1) onSuccess: wait (goto poll)\n');
    expect(text).toContain('\n  s1_pay__onFailure --> s0_first_step__entering : (3) onFailure: again (goto first-step) [$statusCode #60; 500#59; #60;b#62;]\n');
  });

  it('dashes the unreachable states', () => {
    expect(text).not.toContain('classDef unreachable');
    const plan: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { unsupported: 'nested workflows are not supported' }), step('after')] };
    expect(toMermaid(compileWorkflow(plan, judgeOf([])).config).endsWith(
      '  classDef unreachable stroke-dasharray:4\n  class s1_after__entering,s1_after__calling,succeeded unreachable\n',
    )).toBe(true);
  });
});

describe('toDot', () => {
  const text = toDot(machine.config);

  it('is a digraph with a cluster per step and double-bordered finals', () => {
    expect(text.startsWith('digraph "workflow" {\n  label="Arazzo workflow wf";\n')).toBe(true);
    expect(text).toContain('  subgraph "cluster_s0_first_step" {\n    label="s0_first_step (first-step)";\n');
    expect(text).toContain('    "s1_pay.calling" [label="calling\\nentry / startRun"];\n');
    expect(text).toContain('  "succeeded" [label="succeeded\\nentry / computeOutputs", peripheries=2];\n');
    expect(text).toContain('    "s1_pay.backoff" [label="backoff"];\n');
    expect(text).not.toContain('"s0_first_step.backoff"');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('clips an edge into another step at its cluster, but not a step going back to itself', () => {
    expect(text).toContain('  "s1_pay.onFailure" -> "s0_first_step.entering" [label="(3) onFailure: again (goto first-step) [$statusCode < 500; <b>]", lhead="cluster_s0_first_step"];\n');
    expect(text).toContain('  "s2_poll.onSuccess" -> "s2_poll.entering" [label="(1) onSuccess: wait (goto poll)"];\n');
  });

  it('escapes quotes and backslashes in labels', () => {
    const config = { id: 'm', initial: 'a', states: { a: { on: { GO: { target: 'b', description: 'say "hi" \\ bye' } } }, b: { type: 'final' } } };
    expect(toDot(config)).toContain('"a" -> "b" [label="GO say \\"hi\\" \\\\ bye"];');
  });
});

describe('toStatelyJson', () => {
  it('is machine.config as JSON, always transitions kept and functions dropped', () => {
    const json = toStatelyJson(machine);
    const parsed = JSON.parse(json) as { states: Record<string, { states: Record<string, { always?: unknown; entry?: unknown; on?: unknown }> }> };
    expect(json).toBe(`${JSON.stringify(machine.config, null, 2)}\n`);
    expect(parsed.states.s1_pay!.states.onFailure!.always).toHaveLength(4);
    expect(parsed.states.s1_pay!.states.calling).toEqual({
      entry: { type: 'startRun', params: { index: 1, stepId: 'pay' } },
      on: {
        'runStep.done': [
          { guard: 'wasDryRun', target: '#workflow.s2_poll', reenter: true, actions: ['storeOutcome', { type: 'recordStep', params: { stepId: 'pay' } }] },
          { guard: 'stepSucceeded', target: '#workflow.s2_poll', reenter: true, actions: ['storeOutcome', { type: 'recordStep', params: { stepId: 'pay' } }] },
          { target: '#workflow.s1_pay.onFailure', actions: 'storeOutcome' },
        ],
        'runStep.error': { target: '#workflow.s1_pay.onFailure', actions: 'storeCrash' },
      },
    });
    expect(parsed).toMatchObject({ invoke: { src: 'runStep', id: 'runStep' } });
    expect(json).not.toContain('"context"');
  });

  it('can be loaded back into an XState machine with the same states', () => {
    const reloaded = createMachine(JSON.parse(toStatelyJson(machine)) as Parameters<typeof createMachine>[0]);
    expect(Object.keys(reloaded.states)).toEqual(['s0_first_step', 's1_pay', 's2_poll', 'succeeded', 'failed']);
    expect(reloaded.getStateNodeById('workflow.s1_pay.backoff').key).toBe('backoff');
  });
});
