/**
 * `--tool-retry` (the request pipeline's transport retries) and the workflow `retry` action are
 * independent: transport retries leave no step record and use no budget, workflow retries are
 * step runs, and neither counter eats into the other. Non-idempotent requests are not
 * transport-retried unless --tool-retry-unsafe says so.
 */
import { describe, expect, it } from '@jest/globals';
import { recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const busyTwiceThenOk = [{ status: 503 }, { status: 503 }, { status: 200 }];

describe('arazzo run: transport retries versus workflow retries', () => {
  it('absorbs two 503s on a GET with --tool-retry 2: one step record, three requests', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--tool-retry', '2'], { 'GET /a': busyTwiceThenOk });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['fetch:200']);
    expect(h.server.count('GET /a')).toBe(3);
  });

  it('transport-retries twice by default', async () => {
    const result = await h.run('transport-get.arazzo.yaml', [], { 'GET /a': busyTwiceThenOk });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['fetch:200']);
    expect(h.server.count('GET /a')).toBe(3);
  });

  it('fails the step with the last status when transport retries run out', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--tool-retry', '1'], { 'GET /a': busyTwiceThenOk });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['fetch:503']);
    expect(h.server.count('GET /a')).toBe(2);
  });

  it('transport-retries a connection reset on a GET without a step record', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--tool-retry', '1'], { 'GET /a': [{ reset: true }, { status: 200 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['fetch:200']);
    expect(h.server.count('GET /a')).toBe(2);
  });

  it('leaves a 503 to the workflow retry with --tool-retry 0: two step records', async () => {
    const result = await h.run('transport-get-workflow-retry.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': [{ status: 503 }, { status: 200 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['fetch:503', 'fetch:200']);
    expect(h.server.count('GET /a')).toBe(2);
  });

  it('keeps the two counters apart: transport retries do not use up the workflow retryLimit, nor the reverse', async () => {
    // Run 1: 503, transport retry, 503 -> the step fails; workflow retry (limit 1) -> run 2: 503, transport retry, 200.
    const result = await h.run('transport-get-workflow-retry.arazzo.yaml', ['--tool-retry', '1'], {
      'GET /a': [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }],
    });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['fetch:503', 'fetch:200']);
    expect(h.server.count('GET /a')).toBe(4);
  });

  it('does not count transport retries against --tool-max-steps', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--tool-retry', '2', '--tool-max-steps', '1'], { 'GET /a': busyTwiceThenOk });
    expect(result.code).toBe(0);
    expect(h.server.count('GET /a')).toBe(3);
  });

  it('does not transport-retry a POST', async () => {
    const result = await h.run('transport-post.arazzo.yaml', ['--tool-retry', '2'], { 'POST /items': [{ status: 503 }, { status: 201 }] });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['create:503']);
    expect(h.server.count('POST /items')).toBe(1);
  });

  it('transport-retries a POST with --tool-retry-unsafe', async () => {
    const result = await h.run('transport-post.arazzo.yaml', ['--tool-retry', '2', '--tool-retry-unsafe'], { 'POST /items': [{ status: 503 }, { status: 201 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['create:201']);
    expect(h.server.count('POST /items')).toBe(2);
  });

  it('re-sends a POST through a workflow retry action, which the author asked for', async () => {
    const result = await h.run('transport-post-workflow-retry.arazzo.yaml', ['--tool-retry', '2'], { 'POST /items': [{ status: 503 }, { status: 201 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['create:503', 'create:201']);
    expect(h.server.hits.map((hit) => JSON.parse(hit.body))).toEqual([{ name: 'twice' }, { name: 'twice' }]);
  });
});
