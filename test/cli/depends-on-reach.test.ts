/**
 * Issue 23, item 5 (v2): a dependsOn workflow runs to its end, transfers included, and a
 * workflow called nested or reached by a transfer runs its own dependsOn first; each dependency
 * once per run. Against a real local server, counting the requests.
 */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './run-harness.js';
import { nestedRecordOf, nestedTrail } from './nested-record.js';

const h = useRunHarness();

const run = (workflow: string, routes: Parameters<typeof h.run>[2], extra: string[] = []) => h.run('v2-depends-on-reach.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', workflow, ...extra], routes);
const paths = () => h.server.hits.map((hit) => `${hit.method} ${hit.path}`);
const routes = { 'GET /a': { body: {} }, 'GET /b': { body: { token: 't-1' } }, 'GET /c': { body: {} }, 'GET /d': { body: { session: 's-1' } } };

describe('a dependency that transfers', () => {
  it('runs the workflow it hands over to (and that one\'s own dependency) before the dependent: 4 requests', async () => {
    const result = await run('afterHandover', routes);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /a', 'GET /d', 'GET /b', 'GET /c']);
    const record = nestedRecordOf(result);
    expect(record.dependencies?.map((d) => [d.workflowId, d.outputs, nestedTrail(d.steps)])).toEqual([
      ['login', { session: 's-1' }, ['login.signIn:200']],
      ['handsOver', { token: 't-1' }, ['handsOver.start:200', 'finish.done:200']],
    ]);
    expect((record.dependencies?.[1] as { transfers?: unknown }).transfers).toEqual([{ from: 'handsOver', stepId: 'start', to: 'finish' }]);
    expect(nestedTrail(record.steps)).toEqual(['afterHandover.last:200']);
    expect(record.outputs).toEqual({ token: 't-1' });
  });
});

describe('the dependsOn of a nested workflow', () => {
  it('runs before the first call, once per run: 3 requests for two calls', async () => {
    const result = await run('callsTwice', routes);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /d', 'GET /b', 'GET /b']);
    const record = nestedRecordOf(result);
    expect(nestedTrail(record.steps)).toEqual(['callsTwice.first:0[needsLogin.fetch:200]', 'callsTwice.second:0[needsLogin.fetch:200]']);
    // The call that ran the dependency shows it on its record, as the run record shows the selected workflow's.
    const first = record.steps[0] as { dependencies?: Array<{ workflowId: string; outputs: unknown; steps: Parameters<typeof nestedTrail>[0] }> };
    expect(first.dependencies?.map((d) => [d.workflowId, d.outputs, nestedTrail(d.steps)])).toEqual([['login', { session: 's-1' }, ['login.signIn:200']]]);
    expect((record.steps[1] as { dependencies?: unknown }).dependencies).toBeUndefined();
    expect(record.dependencies).toBeUndefined();
  });

  it('does not run a dependency the run already completed', async () => {
    const result = await run('loggedIn', routes);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /d', 'GET /b']);
    expect(nestedRecordOf(result).dependencies?.map((d) => d.workflowId)).toEqual(['login']);
  });

  it('a failing dependency fails the call before its steps; the caller\'s chain applies', async () => {
    const result = await run('callsBroken', { ...routes, 'GET /a': { status: 400 } });
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /a', 'GET /c']);
    const record = nestedRecordOf(result);
    expect(nestedTrail(record.steps)).toEqual(['callsBroken.call:0[]', 'callsBroken.recovered:200']);
    expect(result.stderr).toMatch(/workflow "needsBroken" did not run: its dependency "broken" failed at step "breaks"/);
    const call = record.steps[0] as { dependencies?: Array<{ workflowId: string; outputs: unknown; steps: Parameters<typeof nestedTrail>[0] }> };
    expect(call.dependencies?.map((d) => [d.workflowId, d.outputs, nestedTrail(d.steps)])).toEqual([['broken', {}, ['broken.breaks:400']]]);
  });
});

describe('the dependsOn of a workflow a transfer reaches', () => {
  it('runs before the target: 3 requests, and the record lists it', async () => {
    const result = await run('transfers', routes);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /a', 'GET /d', 'GET /b']);
    const record = nestedRecordOf(result);
    expect(nestedTrail(record.steps)).toEqual(['transfers.begin:200', 'needsLogin.fetch:200']);
    expect(record.transfers).toEqual([{ from: 'transfers', stepId: 'begin', to: 'needsLogin' }]);
    expect(record.dependencies?.map((d) => d.workflowId)).toEqual(['login']);
  });

  it('a failing dependency fails the run (exit 1) before the target runs, and stderr names both', async () => {
    const result = await run('transfers', { ...routes, 'GET /d': { status: 400 } });
    expect(result.code).toBe(1);
    expect(paths()).toEqual(['GET /a', 'GET /d']);
    expect(result.stderr).toContain('workflow "needsLogin" did not run: its dependency "login" failed');
    const record = nestedRecordOf(result);
    expect(nestedTrail(record.steps)).toEqual(['transfers.begin:200']);
    expect(record.dependencies?.map((d) => [d.workflowId, d.outputs])).toEqual([['login', {}]]);
  });
});
