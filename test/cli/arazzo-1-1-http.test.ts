/**
 * Arazzo 1.1's additions over HTTP, run end to end against a local server: a step `timeout`,
 * `in: querystring` (form and JSON forms), action `parameters` passed to a goto's workflow, and
 * step `dependsOn` ordering the steps.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const FIXTURE = 'arazzo-1-1.arazzo.yaml';

describe('Arazzo 1.1 over HTTP', () => {
  it('aborts a step at its timeout and follows its failure chain', async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'timeout'], { 'GET /slow': { delayMs: 2000, body: {} }, 'GET /a': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['slow:0:on-failure-goto', 'fallback:200']);
    expect(result.stderr).toContain("the step's timeout of 150 ms passed before its response arrived; the request was aborted");
    expect(result.elapsedMs).toBeLessThan(1900);
  });

  it('stops a nested call at its step timeout and follows the failure chain', async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'slowCall'], { 'GET /slow': { delayMs: 2000, body: {} }, 'GET /a': {} });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('call → workflow slowChild: workflow "slowChild" failed: the step\'s timeout of 150 ms passed before the call ended; it was stopped');
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/slow', '/a']);
    expect(result.elapsedMs).toBeLessThan(1900);
  });

  it('without a failure chain, the timed-out step fails the run (exit 1)', async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'timeout'], { 'GET /slow': { delayMs: 2000, body: {} }, 'GET /a': { status: 500 } });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['slow:0:on-failure-goto', 'fallback:500']);
  });

  it('sends a querystring as the whole query: form text with embedded values encoded, and JSON percent-encoded whole', async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'querystring', '--input', 'category=toys & games'], { 'GET /items': { body: [] } });
    expect(result.code).toBe(0);
    const [form, json] = h.server.hits;
    expect(form!.query).toEqual({ category: 'toys & games', limit: '5', note: 'a b' });
    expect(json!.query).toEqual({ '{"filter":"active","limit":50}': '' });
  });

  it("passes an action's parameters to the workflow a goto runs, over the run's inputs", async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'handOff', '--input', 'n=1'], { 'GET /a': { body: { next: 7 } }, 'GET /echo/{n}': {} });
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as { steps: Array<{ stepId: string }>; transfers: unknown };
    expect(record.steps.map((step) => step.stepId)).toEqual(['first', 'echo']);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/echo/7']);
    expect(record.transfers).toEqual([{ from: 'handOff', stepId: 'first', to: 'echoN' }]);
  });

  it("passes a retry action's parameters to the workflow it runs before the retry", async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'retryWith', '--input', 'n=1'], { 'GET /b': [{ status: 409 }, {}], 'GET /echo/{n}': {} });
    expect(result.code).toBe(0);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/b', '/echo/409', '/b']);
  });

  it('runs steps in the order their dependencies need (explicit dependsOn and output references)', async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'ordered'], { 'GET /a': { body: { token: 't1' } }, 'GET /b': {}, 'GET /c': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['a:200', 'b:200', 'c:200']);
    expect(h.server.hits[1]!.headers['x-from-a']).toBe('t1');
  });

  it("runs a step that depends on another workflow's step once that step has succeeded in the run", async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'afterSetup'], { 'GET /a': {}, 'GET /b': {} });
    expect(result.code).toBe(0);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/b']);
  });

  it("fails a step whose other workflow's step has not run, before sending anything for it (dependsOn does not run it)", async () => {
    const result = await h.run(FIXTURE, ['--workflow', 'withoutSetup'], { 'GET /a': {}, 'GET /b': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('it depends on step "login" of workflow "setup", which has not succeeded in this run');
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses a document that breaks the 1.1 rules before sending anything (exit 10), each finding at its line', async () => {
    const result = await h.run('arazzo-1-1-invalid.arazzo.yaml', ['--workflow', 'broken'], { 'GET /a': {} });
    expectNoRun(result, 10);
    for (const [line, code] of [
      [11, 'error EMPTY_SUCCESS_CRITERIA step "empty" has an empty successCriteria'],
      [14, 'error INVALID_TIMEOUT step "late" has timeout -5'],
      [19, 'error QUERYSTRING_CONFLICT step "both" has a querystring parameter and query parameters'],
      [22, 'error STEP_DEPENDS_ON_CYCLE the steps\' dependsOn form a cycle: "loop1" -> "loop2" -> "loop1"'],
      [25, 'error UNKNOWN_STEP step "loop2" depends on step "nowhere"'],
      [27, 'error ACTION_PARAMETERS_WITHOUT_WORKFLOW action "badParams" has parameters but runs no workflow'],
      [29, 'error ACTION_PARAMETER_IN action "withIn": parameter "n" has in: "query"'],
      [32, 'error INVALID_ASYNC_STEP step "publish" has action: send but names no operation or channel of an AsyncAPI source (its AsyncAPI sources: events)'],
      [37, 'error FORWARD_STEP_REFERENCE $steps.later.outputs.v refers to step "later", which comes later in the workflow; Arazzo 1.1 runs steps in order when no step has dependsOn'],
    ] as const) {
      expect(result.stderr).toContain(`arazzo-1-1-invalid.arazzo.yaml:${line}:`);
      expect(result.stderr).toContain(code);
    }
    expect(h.server.hits).toHaveLength(0);
  });

});
