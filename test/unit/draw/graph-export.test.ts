import { describe, expect, it } from '@jest/globals';
import { createMachine } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import { ChartReadError, readChart } from '../../../src/draw/read-chart.js';
import { toDot } from '../../../src/draw/to-dot.js';
import { toMermaid } from '../../../src/draw/to-mermaid.js';
import { toStatelyJson } from '../../../src/draw/to-stately-json.js';
import type { WorkflowPlan } from '../../../machines/types.js';
import { action, judgeOf, step } from '../../machines/harness.js';

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
  it('reads a state per step, compound only for a step that can retry, and the two finals', () => {
    const chart = readChart(machine.config);
    expect(chart.root.children.map((s) => [s.key, s.kind])).toEqual([
      ['s0_first_step', 'atomic'],
      ['s1_pay', 'compound'],
      ['s2_poll', 'atomic'],
      ['succeeded', 'final'],
      ['failed', 'final'],
    ]);
    expect(chart.root.children[0]!.stepId).toBe('first-step');
    expect(chart.root.children[0]!.activities).toEqual(['entry / enterStep, startRun, countRun']);
    expect(chart.root.children.map((s) => s.children.map((c) => c.key))).toEqual([[], ['calling', 'backoff'], [], [], []]);
  });

  it('puts the action chains on the runStep.done event, in first-match order', () => {
    const chart = readChart(machine.config);
    const fromCalling = chart.edges.filter((e) => e.from.join('.') === 's1_pay.calling');
    expect(fromCalling.map((e) => [e.to.join('.'), e.label])).toEqual([
      ['s2_poll', '(1) runStep.done [stepSucceeded] / recordStep'],
      ['s1_pay.backoff', '(2) runStep.done onFailure: busy (retry x3 after 2s) [$statusCode == 503]'],
      ['failed', '(3) runStep.done onFailure: busy (retry x3 after 2s) [$statusCode == 503] (limitReached)'],
      ['s0_first_step', '(4) runStep.done onFailure: again (goto first-step) [$statusCode < 500; <b>]'],
      ['failed', '(5) runStep.done else / recordStep, fail(STEP_FAILED)'],
    ]);
  });

  it('reads the step budget as one transition of the machine itself, from whichever state is active', () => {
    const chart = readChart(machine.config);
    expect(chart.edges.filter((e) => e.from.length === 0).map((e) => [e.to.join('.'), e.label])).toEqual([
      ['failed', 'runStep.budgetSpent / failBudget'],
    ]);
    // No step state checks the budget on its own runStep.done transitions any more.
    expect(chart.edges.filter((e) => e.from.length > 0 && /budget/i.test(e.label))).toEqual([]);
  });

  it('labels other transitions with their trigger, guard and actions', () => {
    const labels = readChart(machine.config).edges.filter((e) => e.from[0] === 's0_first_step').map((e) => e.label);
    expect(labels).toEqual([
      '(1) runStep.done [stepSucceeded] / recordStep',
      '(2) runStep.done else / recordStep, fail(STEP_FAILED)',
    ]);
  });

  it('tries the success actions before "succeeded: on to the next step", and only then the failure side', () => {
    const from = (key: string) => readChart(machine.config).edges.filter((e) => e.from.join('.') === key).map((e) => [e.to.join('.'), e.label]);
    expect(from('s0_first_step').map(([to]) => to)).toEqual(['s1_pay', 'failed']);
    expect(from('s2_poll')).toEqual([
      ['s2_poll', '(1) runStep.done onSuccess: wait (goto poll)'],
      ['succeeded', '(2) runStep.done [stepSucceeded] / recordStep'],
      ['failed', '(3) runStep.done else / recordStep, fail(STEP_FAILED)'],
    ]);
  });

  it('gives a step it cannot run one state, which fails after the budget check', () => {
    const plan: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' }, onFailure: [action('retry')] })] };
    const chart = readChart(compileWorkflow(plan, judgeOf([])).config);
    expect(chart.root.children[0]!.kind).toBe('atomic');
    expect(chart.edges.filter((e) => e.from.join('.') === 's0_nested').map((e) => [e.to.join('.'), e.label])).toEqual([
      ['failed', '(1) [budgetSpent] / fail(STEP_BUDGET_EXHAUSTED)'],
      ['failed', '(2) else / countRun, fail(UNSUPPORTED)'],
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
    const plan: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' } }), step('after')] };
    expect(unreachableIn(compileWorkflow(plan, judgeOf([])).config)).toEqual(['s1_after', 'succeeded']);
  });

  it('refuses a target in another machine', () => {
    const config = { id: 'm', initial: 'a', states: { a: { always: { target: '#elsewhere.b' } } } };
    expect(() => readChart(config)).toThrow(ChartReadError);
  });
});

describe('toMermaid', () => {
  const text = toMermaid(machine.config);

  it('is a stateDiagram-v2 with a state per step, composite for a step that can retry', () => {
    expect(text.startsWith('stateDiagram-v2\n  %% Arazzo workflow wf\n  [*] --> s0_first_step\n')).toBe(true);
    expect(text).toContain('  state "s0_first_step (first-step)" as s0_first_step\n  s0_first_step : entry / enterStep, startRun, countRun\n');
    expect(text).toContain('  state s1_pay {\n    [*] --> s1_pay__calling\n');
    expect(text).toContain('    s1_pay__calling : entry / startRun, countRun\n');
    expect(text).toContain('  failed --> [*]\n');
  });

  it('names a state that has activities, so the success final reads "succeeded" above its entry action', () => {
    expect(text).toContain('  state "succeeded" as succeeded\n  succeeded : entry / computeOutputs\n  succeeded --> [*]\n');
    expect(text).toContain('  state "s2_poll" as s2_poll\n');
  });

  it('draws transitions between the same two states as one arrow, one label per line', () => {
    expect(text).toContain('\n  s1_pay__calling --> failed : (3) runStep.done onFailure: busy (retry x3 after 2s) [$statusCode == 503] (limitReached)<br>(5) runStep.done else / recordStep, fail(STEP_FAILED)\n');
    expect(text).toContain('\n  s0_first_step --> s1_pay__calling : (1) runStep.done [stepSucceeded] / recordStep\n');
    expect(text).toContain('\n  s0_first_step --> failed : (2) runStep.done else / recordStep, fail(STEP_FAILED)\n');
  });

  it('draws a transition inside the step that holds both ends, and lands gotos on the initial sub-state', () => {
    expect(text).toContain('    s1_pay__calling --> s1_pay__backoff : (2) runStep.done onFailure: busy (retry x3 after 2s) [$statusCode == 503]\n');
    expect(text).toContain('\n  s2_poll --> s2_poll : (1) runStep.done onSuccess: wait (goto poll)\n');
    expect(text).toContain('\n  s1_pay__calling --> s0_first_step : (4) runStep.done onFailure: again (goto first-step) [$statusCode #60; 500#59; #60;b#62;]\n');
  });

  it('draws the machine\'s own transition (the step budget spent) as a note on its target, from any state', () => {
    expect(text).toContain('\n  note left of failed : from any state, runStep.budgetSpent / failBudget\n');
    expect(text).not.toContain(' --> failed : runStep.budgetSpent');
  });

  it('dashes the unreachable states', () => {
    expect(text).not.toContain('classDef unreachable');
    const plan: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' } }), step('after')] };
    expect(toMermaid(compileWorkflow(plan, judgeOf([])).config).endsWith(
      '  classDef unreachable stroke-dasharray:4\n  class s1_after,succeeded unreachable\n',
    )).toBe(true);
  });
});

describe('toDot', () => {
  const text = toDot(machine.config);

  it('is a digraph with a cluster per compound step and double-bordered finals', () => {
    expect(text.startsWith('digraph "workflow" {\n  label="Arazzo workflow wf";\n')).toBe(true);
    expect(text).toContain('  "s0_first_step" [label="s0_first_step (first-step)\\nentry / enterStep, startRun, countRun"];\n');
    expect(text).toContain('  subgraph "cluster_s1_pay" {\n    label="s1_pay";\n');
    expect(text).toContain('    "s1_pay.calling" [label="calling\\nentry / startRun, countRun"];\n');
    expect(text).toContain('  "succeeded" [label="succeeded\\nentry / computeOutputs", peripheries=2];\n');
    expect(text).toContain('    "s1_pay.backoff" [label="backoff"];\n');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('clips an edge into another step at its cluster, and merges transitions between the same two states', () => {
    expect(text).toContain('  "s0_first_step" -> "s1_pay.calling" [label="(1) runStep.done [stepSucceeded] / recordStep", lhead="cluster_s1_pay"];\n');
    expect(text).toContain('  "s1_pay.calling" -> "failed" [label="(3) runStep.done onFailure: busy (retry x3 after 2s) [$statusCode == 503] (limitReached)\\n(5) runStep.done else / recordStep, fail(STEP_FAILED)"];\n');
    expect(text).toContain('  "s1_pay.calling" -> "s0_first_step" [label="(4) runStep.done onFailure: again (goto first-step) [$statusCode < 500; <b>]"];\n');
    expect(text).toContain('  "s2_poll" -> "s2_poll" [label="(1) runStep.done onSuccess: wait (goto poll)"];\n');
  });

  it('draws the machine\'s own transition (the step budget spent) from a plaintext "(any state)" node', () => {
    expect(text).toContain('  "(any state)" [shape=plaintext];\n');
    expect(text).toContain('  "(any state)" -> "failed" [label="runStep.budgetSpent / failBudget"];\n');
    // A machine with no transition of its own has no such node.
    expect(toDot({ id: 'm', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } })).not.toContain('(any state)');
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
    expect(parsed.states.s1_pay!.states.calling!.entry).toEqual([{ type: 'startRun', params: { index: 1, stepId: 'pay' } }, 'countRun']);
    expect((parsed.states.s1_pay!.states.calling!.on as Record<string, unknown[]>)['runStep.done']).toHaveLength(5);
    expect((parsed.states as unknown as Record<string, { on: Record<string, unknown[]> }>).s0_first_step!.on['runStep.done']).toEqual([
      { guard: 'stepSucceeded', target: '#workflow.s1_pay', reenter: true, actions: { type: 'recordStep', params: { stepId: 'first-step' } } },
      { target: '#workflow.failed', actions: [{ type: 'recordStep', params: { stepId: 'first-step' } }, { type: 'fail', params: { code: 'STEP_FAILED', stepId: 'first-step' } }] },
    ]);
    expect(parsed).toMatchObject({ invoke: { src: 'runStep', id: 'runStep' } });
    expect((parsed as unknown as { on: unknown }).on).toEqual({ 'runStep.budgetSpent': { target: '#workflow.failed', actions: 'failBudget' } });
    expect(json).not.toContain('"context"');
  });

  it('can be loaded back into an XState machine with the same states', () => {
    const reloaded = createMachine(JSON.parse(toStatelyJson(machine)) as Parameters<typeof createMachine>[0]);
    expect(Object.keys(reloaded.states)).toEqual(['s0_first_step', 's1_pay', 's2_poll', 'succeeded', 'failed']);
    expect(reloaded.getStateNodeById('workflow.s1_pay.backoff').key).toBe('backoff');
  });
});
