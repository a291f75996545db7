/**
 * A generated 1000-step linear workflow in which every step passes an output to the next: the run
 * completes, records every step, and carries the value through to the end. Not a benchmark: how
 * long it takes is measured by `npm run bench` (linear-1000); the test's time limit only catches
 * something pathological (quadratic blow-up, a per-step sleep).
 */
import { describe, expect, it } from '@jest/globals';
import { recordOf } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const STEPS = 1000;

/** The document: step s<i> calls echo with n = the previous step's `next` output. */
function chainDocument(steps: number): string {
  const lines = [
    'arazzo: 1.0.1',
    'info: { title: A long chain, version: 1.0.0 }',
    'sourceDescriptions:',
    '  - { name: api, url: ./api.openapi.yaml, type: openapi }',
    'workflows:',
    '  - workflowId: longChain',
    '    steps:',
  ];
  for (let i = 1; i <= steps; i++) {
    const value = i === 1 ? '0' : `$steps.s${i - 1}.outputs.next`;
    lines.push(
      `      - stepId: s${i}`,
      '        operationId: echo',
      `        parameters: [{ name: n, in: path, value: ${value} }]`,
      '        successCriteria: [{ condition: $statusCode == 200 }]',
      '        outputs: { next: $response.body#/next }',
    );
  }
  lines.push('    outputs:', `      last: $steps.s${steps}.outputs.next`, '');
  return lines.join('\n');
}

describe('arazzo run on a long workflow', () => {
  it(`runs a ${STEPS}-step chain passing an output from each step to the next`, async () => {
    h.server.setRoutes({ 'GET /echo/{n}': (hit) => ({ body: { next: Number(hit.path.split('/')[2]) + 1 } }) });
    h.ws.write('long-chain.arazzo.yaml', chainDocument(STEPS));
    const result = await h.tool(['arazzo', 'run', 'long-chain.arazzo.yaml'], 90_000);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record.steps).toHaveLength(STEPS);
    expect(record.steps.every((step, i) => step.stepId === `s${i + 1}` && step.status === 200 && step.outputs.next === i + 1)).toBe(true);
    expect(record.outputs).toEqual({ last: STEPS });
    expect(h.server.hits.map((hit) => hit.path)).toEqual(Array.from({ length: STEPS }, (_, i) => `/echo/${i}`));
  }, 120_000);
});
