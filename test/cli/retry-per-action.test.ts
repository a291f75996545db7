/**
 * Issue 23, item 6: each retry action counts its own attempts against its own retryLimit, within
 * one visit of the step (v2); v1 keeps one counter for the step visit, as its contract words it.
 * Against a real local server whose answers follow a script, counting the requests.
 */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();

/** A route that answers each request with the next status of `statuses` (the last one after that). */
function scripted(statuses: number[]) {
  let n = 0;
  return () => ({ status: statuses[Math.min(n++, statuses.length - 1)]!, body: {} });
}

const run = (runner: string, statuses: number[]) => h.run('retry-per-action.arazzo.yaml', ['--tool-runner', runner, '--workflow', 'twoRetries', '--tool-retry', '0'], { 'GET /a': scripted(statuses) });

describe('two retry actions on one step (v2)', () => {
  it('gives retrySlow its own three retries after retryFast used its two: 1 + 2 + 3 requests, and the last succeeds', async () => {
    const result = await run('v2', [503, 503, 500, 500, 500, 200]);
    expect(result.code).toBe(0);
    expect(h.server.hits.length).toBe(6);
    // The narration numbers each retry by its own action's count.
    expect(result.stderr).toContain('retry 2/2 (action "retryFast"');
    expect(result.stderr).toContain('retry 1/3 (action "retrySlow"');
    expect(result.stderr).toContain('retry 3/3 (action "retrySlow"');
  });

  it('stops when the action whose criteria hold has used its own limit, naming it', async () => {
    const result = await run('v2', [500, 500, 500, 500, 200]);
    expect(result.code).toBe(1);
    expect(h.server.hits.length).toBe(4);
    expect(result.stderr).toContain('retry action "retrySlow" reached its limit of 3 retries');
  });
});

describe('two retry actions on one step (v1)', () => {
  it('keeps one counter for the step visit, as the v1 contract says ("retries used < retryLimit")', async () => {
    const result = await run('v1', [503, 503, 500, 500, 500, 200]);
    expect(result.code).toBe(1);
    // retryFast used two retries; retrySlow's limit of 3 leaves it one.
    expect(h.server.hits.length).toBe(4);
    expect(result.stderr).toContain('retry action "retrySlow" reached its limit of 3 retries');
  });
});
