import { describe, expect, it } from '@jest/globals';
import type { WorkflowPlan } from '../../../machines/types.js';
import { stepsChart } from '../../../src/draw/steps-chart.js';
import { stepsToDot } from '../../../src/draw/steps-to-dot.js';
import { stepsToMermaid } from '../../../src/draw/steps-to-mermaid.js';
import { action, step } from '../../machines/harness.js';

const plan: WorkflowPlan = {
  workflowId: 'wf',
  steps: [
    step('first-step'),
    step('pay', {
      onFailure: [
        action('retry', { name: 'busy', retryLimit: 3, retryAfterSeconds: 2, criteriaId: 0, criteriaText: ['$statusCode == 503'], criteriaCanFail: true }),
        action('goto', { name: 'cleanup', targetIndex: 2, criteriaId: 1, criteriaText: ['$statusCode == 404'] }),
        action('end', { name: 'giveUp' }),
      ],
    }),
    step('cleanup', {
      onSuccess: [
        action('goto', { name: 'again', targetIndex: 2, criteriaId: 2, criteriaText: ['$response.body#/state == "pending"', '$response.header.Retry-After != null'] }),
        action('end', { name: 'done' }),
      ],
    }),
  ],
};

const chart = stepsChart(plan);

describe('stepsChart', () => {
  it('has a node per step, by step id, between start and the two finals', () => {
    expect(chart.nodes.map((n) => [n.id, n.kind, n.label])).toEqual([
      ['start', 'start', 'start'],
      ['s0_first_step', 'step', 'first-step'],
      ['s1_pay', 'step', 'pay'],
      ['s2_cleanup', 'step', 'cleanup'],
      ['succeeded', 'succeeded', 'succeeded'],
      ['failed', 'failed', 'failed'],
    ]);
  });

  it('keeps only the Arazzo actions, "next step" and "fail", labelled from their data', () => {
    expect(chart.edges.map((e) => [e.from, e.to, e.labels, e.failure])).toEqual([
      ['start', 's0_first_step', [''], false],
      ['s0_first_step', 's1_pay', ['next step'], false],
      ['s0_first_step', 'failed', ['fail'], true],
      ['s1_pay', 's2_cleanup', ['next step'], false],
      ['s1_pay', 's1_pay', ['retry ≤3 / 2s: $statusCode == 503'], true],
      ['s1_pay', 's2_cleanup', ['goto cleanup: $statusCode == 404'], true],
      ['s1_pay', 'failed', ['end'], true],
      ['s2_cleanup', 's2_cleanup', ['goto cleanup:\n$response.body#/state == "pending" &&\n$response.header.Retry-After != null'], false],
      ['s2_cleanup', 'succeeded', ['end'], false],
      ['s2_cleanup', 'failed', ['fail'], true],
    ]);
  });

  it('draws nothing after an end or goto without criteria on its side, which always fires', () => {
    const always: WorkflowPlan = {
      workflowId: 'wf',
      steps: [step('a', { onSuccess: [action('goto', { targetIndex: 1 }), action('end')], onFailure: [action('end', { name: 'stop' })] }), step('b')],
    };
    const edges = stepsChart(always).edges.filter((e) => e.from === 's0_a');
    expect(edges.map((e) => [e.to, e.labels])).toEqual([
      ['s1_b', ['goto b']],
      ['failed', ['end']],
    ]);
  });

  it('leaves out the engine: budget, dry run, retry limit reached, criteria that cannot be evaluated, backoff', () => {
    const labels = chart.edges.flatMap((e) => e.labels).join('\n');
    for (const engine of ['budgetSpent', 'failBudget', 'limitReached', 'criteriaBroken', 'retryDelay', 'recordStep']) expect(labels).not.toContain(engine);
  });

  it('marks a step v1 cannot run, and dashes what no edge reaches after it', () => {
    const unsupported: WorkflowPlan = { workflowId: 'wf', steps: [step('nested', { fails: { code: 'UNSUPPORTED', reason: 'nested workflows are not supported' } }), step('after')] };
    const chart = stepsChart(unsupported);
    expect(chart.edges.map((e) => [e.from, e.to, e.labels])).toEqual([
      ['start', 's0_nested', ['']],
      ['s0_nested', 'failed', ['unsupported']],
      ['s1_after', 'succeeded', ['next step']],
      ['s1_after', 'failed', ['fail']],
    ]);
    expect(chart.nodes.filter((n) => n.unreachable).map((n) => n.id)).toEqual(['s1_after', 'succeeded']);
  });

  it('starts in succeeded for a workflow without steps', () => {
    const chart = stepsChart({ workflowId: 'none', steps: [] });
    expect(chart.edges).toEqual([{ from: 'start', to: 'succeeded', labels: [''], failure: false }]);
  });
});

describe('stepsToDot', () => {
  const text = stepsToDot(chart);

  it('is a top-to-bottom digraph with the finals on the bottom rank', () => {
    expect(text.startsWith('digraph "workflow" {\n  label="Arazzo workflow wf";\n  labelloc=t;\n  rankdir=TB;\n')).toBe(true);
    expect(text).toContain('  "s0_first_step" [label="first-step", id="node-s0_first_step"];\n');
    expect(text).toContain('  { rank=sink; "succeeded"; "failed"; }\n');
  });

  it('colours failure edges and stacks the labels of one arrow', () => {
    expect(text).toContain('  "start" -> "s0_first_step" [id="edge-start-s0_first_step"];\n');
    expect(text).toContain('  "s1_pay" -> "failed" [label="end", color="#b22222", fontcolor="#b22222", id="edge-s1_pay-failed-fail"];\n');
    expect(text).toContain('  "s2_cleanup" -> "s2_cleanup" [label="  goto cleanup:\\n  $response.body#/state == \\"pending\\" &&\\n  $response.header.Retry-After != null", id="edge-s2_cleanup-s2_cleanup"];\n');
  });

  it('gives every node and edge an id the live view finds them by, the two sides of one pair apart', () => {
    expect(text).toContain('  "s1_pay" -> "s2_cleanup" [label="next step", id="edge-s1_pay-s2_cleanup"];\n');
    expect(text).toContain('id="edge-s1_pay-s2_cleanup-fail"');
    const ids = [...text.matchAll(/id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id!.startsWith('node-'))).toEqual(['node-start', 'node-s0_first_step', 'node-s1_pay', 'node-s2_cleanup', 'node-succeeded', 'node-failed']);
  });
});

describe('stepsToMermaid', () => {
  const text = stepsToMermaid(chart);

  it('is a flowchart TB with quoted, escaped labels', () => {
    expect(text.startsWith('flowchart TB\n  %% Arazzo workflow wf\n  start(("start"))\n  s0_first_step("first-step")\n')).toBe(true);
    expect(text).toContain('  succeeded(["succeeded"])\n');
    expect(text).toContain('  s2_cleanup -->|"goto cleanup:<br>$response.body#/state == #34;pending#34; &&<br>$response.header.Retry-After != null"| s2_cleanup\n');
    expect(text).toContain('  s1_pay -->|"end"| failed\n');
  });

  it('styles the failure links by their index', () => {
    expect(text).toContain('  linkStyle 2,4,5,6,9 stroke:#b22222,color:#b22222\n');
  });
});
