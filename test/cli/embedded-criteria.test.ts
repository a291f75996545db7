/**
 * v2 (docs/run.md#criteria-in-v2): `{$…}` runtime expressions embedded in a regex, jsonpath or
 * xpath condition are evaluated first and their values put in its text, which is then evaluated
 * (Arazzo 1.0.1 §Criterion; normative in 1.1). Validation compiles such a condition with stand-ins
 * for the values and checks what its expressions refer to.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const FIXTURE = 'v2-embedded-criteria.arazzo.yaml';
const V2 = ['--tool-runner', 'v2'];
const ROUTES = {
  'GET /items': { body: { items: [{ status: 'available', price: 5 }] } },
  'GET /a': { headers: { 'content-type': 'application/xml' }, body: '<root><items><price>12</price></items></root>' },
};

describe('arazzo run --tool-runner v2: expressions embedded in typed criteria', () => {
  it('fills them in before evaluating the jsonpath, regex and xpath conditions', async () => {
    const result = await h.run(FIXTURE, [...V2, '--input', 'expectedStatus=available', '--input', 'statusPattern=avail.*|sold', '--input', 'minPrice=10'], ROUTES);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['list:200', 'prices:200']);
  });

  it('judges on the filled-in values: another status, or a higher minimum, does not hold', async () => {
    const status = await h.run(FIXTURE, [...V2, '--input', 'expectedStatus=sold', '--input', 'statusPattern=available', '--input', 'minPrice=10'], ROUTES);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('success criterion `$.items[?@.status == "{$inputs.expectedStatus}"]` does not hold');
    const price = await h.run(FIXTURE, [...V2, '--input', 'expectedStatus=available', '--input', 'statusPattern=available', '--input', 'minPrice=20'], ROUTES);
    expect(price.code).toBe(1);
    expect(trail(recordOf(price))).toEqual(['list:200', 'prices:200']);
    expect(price.stderr).toContain('success criterion `/root/items[price > {$steps.list.outputs.min}]` does not hold');
  });

  it('a value that is not there makes the criterion not hold, saying which expression', async () => {
    const result = await h.run(FIXTURE, [...V2, '--input', 'statusPattern=available', '--input', 'minPrice=10'], ROUTES);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('jsonpath criterion `$.items[?@.status == "{$inputs.expectedStatus}"]` does not hold: {$inputs.expectedStatus} resolved to nothing');
  });

  it('a filled-in regex that does not compile does not hold, with the reason', async () => {
    const result = await h.run(FIXTURE, [...V2, '--input', 'expectedStatus=available', '--input', 'statusPattern=(', '--input', 'minPrice=10'], ROUTES);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('with its expressions filled in, `^(()$` is not a valid pattern');
  });

  it('validate compiles the conditions with stand-ins, and checks what the expressions name', async () => {
    const file = h.ws.fixture(FIXTURE, { BASE_URL: h.server.url });
    const clean = await h.tool(['arazzo', 'validate', file, ...V2]);
    expect(clean.code).toBe(0);
    h.ws.write('bad.arazzo.yaml', readFileSync(file, 'utf8').replace('{$steps.list.outputs.min}', '{$steps.lists.outputs.min}'));
    const bad = await h.tool(['arazzo', 'validate', 'bad.arazzo.yaml', ...V2]);
    expect(bad.code).toBe(10);
    expect(bad.stdout).toContain('lists');
  });
});
