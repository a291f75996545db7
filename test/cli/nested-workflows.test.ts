/**
 * The v2 runner's workflow calls, end to end against a real local server: nested workflow steps
 * (child machines), `$workflows`, a child failure absorbed by the caller's chain, transfers on both
 * sides and inside a nested call, retries that run a step or a workflow first, a retry at its limit
 * going on to the next action, chains merged by name, dependsOn, and the depth limit.
 */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './run-harness.js';
import { startInWorkspace } from './run-in-workspace.js';
import { nestedRecordOf, nestedTrail } from './nested-record.js';

const h = useRunHarness();

const recordOf = nestedRecordOf;
const trail = nestedTrail;

const run = (workflow: string, routes: Parameters<typeof h.run>[2], extra: string[] = []) => h.run('v2-nested.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', workflow, ...extra], routes);
const paths = () => h.server.hits.map((hit) => `${hit.method} ${hit.path}`);

describe('nested workflow steps', () => {
  it('runs the child with the step parameters as inputs (JSON types kept), and the caller reads $outputs and $workflows', async () => {
    const result = await run('main', { 'GET /a': { body: { id: 7 } }, 'GET /items/{id}': (hit) => ({ body: { status: hit.path === '/items/7' ? 'ready' : 'seen' } }) });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(paths()).toEqual(['GET /a', 'GET /items/7', 'GET /items/ready']);
    expect(trail(record.steps)).toEqual(['main.first:200', 'main.callChild:0[child.fetch:200]', 'main.after:200']);
    expect(record.steps[1]!.outputs).toEqual({ childStatus: 'ready', childLabel: 'from-main' });
    expect(record.outputs).toEqual({ status: 'ready', label: 'from-main', itemId: 7 });
    expect(result.stderr).toContain('callChild/fetch GET');
    expect(result.stderr).toContain('callChild → workflow child');
  });

  it('a child that fails fails the step, and the caller\'s onFailure goto absorbs it (exit 0)', async () => {
    const result = await run('absorbs', { 'GET /b': { status: 400 }, 'GET /c': {}, 'GET /d': {} });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record.steps)).toEqual(['absorbs.callFailing:0[failing.breaks:400]', 'absorbs.recover:200']);
    expect(record.steps[0]!.failedVia).toBe('on-failure-goto');
    expect(paths()).toEqual(['GET /b', 'GET /d']);
    expect(result.stderr).toMatch(/callFailing → workflow failing: workflow "failing" failed at step "breaks"/);
  });

  it('prints a nested step\'s requests with its path in a dry run', async () => {
    const result = await run('main', {}, ['--dry-run', '--input', 'x=1']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/callChild\/fetch GET .*\/items\//);
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses a --tool-max-depth deeper than the stack holds with exit 2, before anything runs', async () => {
    const result = await run('selfCall', {}, ['--tool-max-depth', '2000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tool-max-depth must be between 1 and 500, got 2000');
    expect(result.stderr).not.toContain('RangeError');
  });

  it('stops a workflow that calls itself at --tool-max-depth, fast, with WorkflowDepthExceeded (exit 1)', async () => {
    const started = Date.now();
    const result = await run('selfCall', {}, ['--tool-max-depth', '5']);
    expect(result.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.stderr).toContain('WorkflowDepthExceeded: a nested call would be 6 workflows deep, past the limit of 5 (raise it with --tool-max-depth)');
    const deep = await run('selfCall', {});
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain('past the limit of 32');
    // A long path of calls is shortened in the message.
    expect(deep.stderr).toContain('in nested step "again" → "again" → … 28 more … → "again" → "again", step "again": WorkflowDepthExceeded');
  });

  it('a dry run of a workflow that calls itself shows the call once and does not recurse', async () => {
    const result = await run('selfCall', {}, ['--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('step "again/again": a dry run does not call workflow "selfCall" again (it is already being called)');
    expect(trail(recordOf(result).steps)).toEqual(['selfCall.again:0[selfCall.again:0]']);
  });

  it('counts --tool-max-steps across nested workflows', async () => {
    const result = await run('main', { 'GET /a': { body: { id: 7 } }, 'GET /items/{id}': { body: { status: 'ready' } } }, ['--tool-max-steps', '3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('StepBudgetExhausted');
    expect(paths()).toEqual(['GET /a', 'GET /items/7']);
  });
});

describe('transfers: a goto to another workflow', () => {
  it('on success: the workflow ends and the target runs; the record lists both and the transfer', async () => {
    const result = await run('transfers', { 'GET /a': {}, 'GET /b': {}, 'GET /c': { body: { c: 3 } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record.steps)).toEqual(['transfers.first:200', 'target.last:200']);
    expect(record.transfers).toEqual([{ from: 'transfers', stepId: 'first', to: 'target' }]);
    expect(record.outputs).toEqual({ c: 3 });
    expect(paths()).toEqual(['GET /a', 'GET /c']);
  });

  it('on failure: a failure-side goto to a workflow that succeeds exits 0', async () => {
    const result = await run('transfersOnFailure', { 'GET /b': { status: 400 }, 'GET /c': { body: { c: 4 } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record.steps)).toEqual(['transfersOnFailure.breaks:400', 'target.last:200']);
    expect(record.steps[0]!.failedVia).toBe('on-failure-goto');
    expect(record.outputs).toEqual({ c: 4 });
  });

  it('inside a nested call: the call follows the transfer, and the caller gets the target\'s outputs', async () => {
    const result = await run('nestedTransfer', { 'GET /a': {}, 'GET /c': { body: { c: 5 } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record.steps)).toEqual(['nestedTransfer.callTransfers:0[transfers.first:200 target.last:200]']);
    expect(record.steps[0]!.transfers).toEqual([{ from: 'transfers', stepId: 'first', to: 'target' }]);
    expect(record.outputs).toEqual({ c: 5 });
  });
});

describe('retry actions with a target, and the end of a retry', () => {
  it('a retry with stepId runs that step once, then retries the current one', async () => {
    const result = await run('retryStep', { 'GET /d': {}, 'GET /a': [{ status: 409 }, { status: 200 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result).steps)).toEqual(['retryStep.refresh:200', 'retryStep.flaky:409', 'retryStep.refresh:200', 'retryStep.flaky:200']);
    expect(paths()).toEqual(['GET /d', 'GET /a', 'GET /d', 'GET /a']);
  });

  it('a retry whose stepId is a nested step makes that call again, then retries', async () => {
    const result = await run('retryNested', { 'GET /d': {}, 'GET /a': [{ status: 401 }, { status: 200 }] });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result).steps)).toEqual(['retryNested.refreshLogin:0[login.doLogin:200]', 'retryNested.flaky:401', 'retryNested.refreshLogin:0[login.doLogin:200]', 'retryNested.flaky:200']);
    expect(paths()).toEqual(['GET /d', 'GET /a', 'GET /d', 'GET /a']);
  });

  it('a retry with workflowId runs that workflow as a nested call, then retries', async () => {
    const result = await run('retryWorkflow', { 'GET /d': {}, 'GET /a': [{ status: 401 }, { status: 200 }] });
    expect(result.code).toBe(0);
    // The workflow a retry ran is under the record of the attempt that retried.
    expect(trail(recordOf(result).steps)).toEqual(['retryWorkflow.flaky:401[login.doLogin:200]', 'retryWorkflow.flaky:200']);
    expect(paths()).toEqual(['GET /a', 'GET /d', 'GET /a']);
  });

  it('a retry at its limit goes on to the next action whose criteria hold', async () => {
    const result = await run('fallThrough', { 'GET /a': { status: 503 }, 'GET /b': {}, 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result).steps)).toEqual(['fallThrough.flaky:503', 'fallThrough.flaky:503', 'fallThrough.cleanup:200']);
    expect(result.stderr).toContain('goto cleanup');
  });

  it('a retry at its limit with no later action fails with the retry\'s limit', async () => {
    const result = await run('retryWorkflow', { 'GET /a': { status: 401 }, 'GET /d': {} });
    expect(result.code).toBe(1);
    expect(paths()).toEqual(['GET /a', 'GET /d', 'GET /a', 'GET /d', 'GET /a']);
    expect(result.stderr).toContain('retry action "loginFirst" reached its limit of 2 retries');
  });
});

describe('chains merged by name', () => {
  it('the step\'s actions come first, then the workflow\'s it does not name', async () => {
    const result = await run('merged', { 'GET /a': { status: 500 }, 'GET /b': {}, 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result).steps)).toEqual(['merged.flaky:500', 'merged.cleanup:200']);
  });

  it('the step\'s own action wins over the workflow\'s of the same name', async () => {
    const result = await run('merged', { 'GET /a': { status: 404 }, 'GET /b': {}, 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result).steps)).toEqual(['merged.flaky:404', 'merged.skipped:200', 'merged.cleanup:200']);
  });

  it('onFailure: [] no longer removes the workflow\'s chain', async () => {
    const result = await run('optOut', { 'GET /a': { status: 500 }, 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result).steps)).toEqual(['optOut.flaky:500', 'optOut.cleanup:200']);
  });
});

describe('dependsOn', () => {
  it('runs the dependencies first, transitively, each once, in topological order', async () => {
    const result = await h.run('v2-depends-on.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', 'main'], { 'GET /a': { body: { a: 1 } }, 'GET /b': { body: { b: 'two' } }, 'GET /items/{id}': {} });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(paths()).toEqual(['GET /a', 'GET /b', 'GET /items/two']);
    expect(record.dependencies?.map((d) => [d.workflowId, d.outputs])).toEqual([
      ['first', { a: 1 }],
      ['second', { b: 'two' }],
    ]);
    expect(trail(record.steps)).toEqual(['main.useThem:200']);
    expect(record.outputs).toEqual({ a: 1 });
  });

  it('a failing dependency fails the run (exit 1) and stderr names it; nothing of the workflow runs', async () => {
    const result = await h.run('v2-depends-on.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', 'failingDependency'], { 'GET /b': { status: 400 }, 'GET /c': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('its dependency "broken" failed');
    expect(paths()).toEqual(['GET /b']);
  });

  it('a dependsOn cycle is a validation error naming the cycle (exit 10), nothing sent', async () => {
    const result = await h.run('v2-depends-on-cycle.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', 'main'], {});
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/DEPENDS_ON_CYCLE.*a → b → a/);
    expect(h.server.hits).toHaveLength(0);
  });
});

describe('seeing a nested run', () => {
  it('trace lines carry the actor path of the machine that took them', async () => {
    const result = await run('main', { 'GET /a': { body: { id: 7 } }, 'GET /items/{id}': { body: { status: 'ready' } } }, ['--trace', 'nested.ndjson']);
    expect(result.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const lines = readFileSync(join(h.ws.dir, 'nested.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const actors = new Set(lines.filter((l) => l.type === 'state').map((l) => l.actor));
    expect([...actors]).toEqual(expect.arrayContaining(['main', 'main/callChild/child']));
    expect(lines.some((l) => l.type === 'state' && l.actor === 'main/callChild/child' && l.stepId === 'fetch')).toBe(true);
    expect(lines.some((l) => l.type === 'step' && l.stepId === 'callChild/fetch' && l.status === 200)).toBe(true);
  });
});

describe('replaying a nested run', () => {
  it('replay --tool-runner v2 gives the recorded nested run its record again, sending nothing', async () => {
    const recorded = await run('main', { 'GET /a': { body: { id: 7 } }, 'GET /items/{id}': { body: { status: 'ready' } } }, ['--har', 'nested.har', '--tool-max-depth', '4']);
    expect(recorded.code).toBe(0);
    const hits = h.server.hits.length;
    const file = h.ws.fixture('v2-nested.arazzo.yaml', { BASE_URL: h.server.url });
    const replayed = await h.tool(['arazzo', 'replay', file, '--from', 'nested.har', '--tool-runner', 'v2', '--workflow', 'main', '--tool-max-depth', '4']);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout)).toEqual(JSON.parse(recorded.stdout));
    expect(h.server.hits).toHaveLength(hits);
  });
});

describe('reports of a nested run', () => {
  it('--report lists the child steps (with their path) and the nested step as its own step run', async () => {
    const result = await run('absorbs', { 'GET /b': { status: 400 }, 'GET /d': {} }, ['--report', 'nested.json']);
    expect(result.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const report = JSON.parse(readFileSync(join(h.ws.dir, 'nested.json'), 'utf8')) as { steps: Array<{ stepId: string; ok: boolean; reason?: string; failedVia?: string; actions: Array<{ name: string }> }> };
    expect(report.steps.map((s) => `${s.stepId}:${s.ok}`)).toEqual(['callFailing/breaks:false', 'callFailing:false', 'recover:true']);
    expect(report.steps[1]!.reason).toContain('workflow "failing" failed at step "breaks"');
    expect(report.steps[1]!.failedVia).toBe('on-failure-goto');
    expect(report.steps[1]!.actions.map((a) => a.name)).toEqual(['recover']);
  });
});

describe('the inputs of a nested call', () => {
  it('the called workflow\'s inputs schema fills in defaults', async () => {
    const result = await run('typedCaller', { 'GET /items/{id}': {} });
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ size: 10 });
    expect(paths()).toEqual(['GET /items/7']);
  });

  it('a required input the calling step does not pass fails the step before the call, naming the fix', async () => {
    const result = await run('missingCaller', { 'GET /items/{id}': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('workflow "typed" requires input "id": pass it as a parameter named "id" of the calling step');
    expect(h.server.hits).toHaveLength(0);
  });

  it('names every required input the calling step does not pass, not only the first', async () => {
    const result = await h.run('v2-nested-missing-inputs.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', 'caller'], { 'GET /items/{id}': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('workflow "child" requires inputs "id", "owner": pass each as a parameter of that name of the calling step');
    expect(h.server.hits).toHaveLength(0);
  });

  it('an input a nested workflow reads but no one passed points at the calling step, not at --input', async () => {
    const result = await run('unpassedCaller', { 'GET /items/{id}': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the calling step "callChild" must pass it as a parameter named "itemId"');
    expect(result.stderr).not.toContain('--input itemId');
  });
});

describe('validating workflow calls', () => {
  it('warns when a nested step reads $statusCode or $response, which it does not have', async () => {
    const file = h.ws.fixture('v2-nested-status.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await h.tool(['arazzo', 'validate', file, '--tool-runner', 'v2']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/warning NESTED_STEP_NO_RESPONSE .*step "callChild" calls a workflow .*\$statusCode resolves to nothing/);
    expect(result.stdout).toMatch(/warning NESTED_STEP_NO_RESPONSE .*\$response resolves to nothing/);
  });

  it('names an unknown nested workflow with a suggestion, and warns about a call cycle', async () => {
    const file = h.ws.fixture('v2-nested.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await h.tool(['arazzo', 'validate', file, '--tool-runner', 'v2']);
    expect(result.stdout).toMatch(/warning WORKFLOW_CALL_CYCLE .*selfCall → selfCall/);
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(file, readFileSync(file, 'utf8').replace('workflowId: child\n        parameters', 'workflowId: chlid\n        parameters'));
    const bad = await h.tool(['arazzo', 'validate', file, '--tool-runner', 'v2']);
    expect(bad.code).toBe(10);
    expect(bad.stdout).toMatch(/error UNKNOWN_WORKFLOW .*names workflow "chlid", which the document does not declare.*child/);
  });
});

describe('interrupting a nested run', () => {
  it('Ctrl-C during a nested call stops the child\'s request, prints the record so far and exits 130', async () => {
    const file = h.ws.fixture('v2-nested.arazzo.yaml', { BASE_URL: h.server.url });
    h.server.setRoutes({ 'GET /a': { body: { id: 7 } }, 'GET /items/{id}': { delayMs: 30_000 } });
    const started = Date.now();
    const { exit, controller, stdout, stderr } = startInWorkspace(['arazzo', 'run', file, '--tool-runner', 'v2', '--workflow', 'main', '--tool-retry', '0'], h.ws.dir);
    while (!h.server.hits.some((hit) => hit.path === '/items/7')) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await exit).toBe(130);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(nestedTrail(JSON.parse(stdout.text).steps)).toEqual(['main.first:200']);
    expect(stderr.text).toContain('interrupted: workflow "main" stopped after 3 step runs');
    expect(stderr.text).not.toMatch(STACK);
  });
});
const STACK = /\n\s+at .*:\d+:\d+/;

describe('review follow-ups', () => {
  it('a retry that runs its own workflow again is stopped at --tool-max-depth, fast', async () => {
    const started = Date.now();
    const result = await run('retrySelf', { 'GET /a': { status: 401 } }, ['--tool-max-depth', '4']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('WorkflowDepthExceeded');
    expect(h.server.hits.length).toBeLessThanOrEqual(5);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a retry whose workflow ends by a transfer fails with a message that says so', async () => {
    const result = await run('retryTransfers', { 'GET /a': [{ status: 401 }, { status: 200 }], 'GET /c': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('retry action "viaTransfer" ran workflow "transfers", which ended by a goto to workflow "target"; a retry runs the workflow it names and does not follow a transfer');
  });

  it('a workflow named runStep is called like any other', async () => {
    const result = await run('callsRunStep', { 'GET /a': { body: { a: 1 } } });
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ a: 1 });
  });

  it('defaults of the called workflow\'s schema do not change the caller\'s values', async () => {
    const result = await run('keepsCallerData', { 'GET /a': { body: { cfg: {} } }, 'GET /b': {} });
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ cfg: {}, flag: true });
  });
});
