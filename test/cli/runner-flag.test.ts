/**
 * Choosing the runner: `--tool-runner v1|v2` on run, validate and graph, TOOL_RUNNER as the default
 * (the flag wins), v1 by default, anything else exit 2; and what v2 does not run yet, said plainly.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const OK = { 'GET /a': { body: { id: 7, items: [{ status: 'ready' }] } }, 'GET /b': { headers: { 'content-type': 'application/xml' }, body: '<order><status>shipped</status><item/><item/></order>' } };

function validate(fixture: string, args: string[] = [], env: Record<string, string> = {}) {
  const file = h.ws.fixture(fixture, { BASE_URL: h.server.url });
  return runInWorkspace(['arazzo', 'validate', file, ...args], { cwd: h.ws.dir, env });
}

describe('--tool-runner and TOOL_RUNNER', () => {
  it('refuses a runner other than v1 or v2 with exit 2, on run, validate and graph', async () => {
    const file = h.ws.fixture('v2-criteria.arazzo.yaml', { BASE_URL: h.server.url });
    for (const command of ['run', 'validate', 'graph']) {
      const result = await runInWorkspace(['arazzo', command, file, '--tool-runner', 'v3'], { cwd: h.ws.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--tool-runner must be v1 or v2, got "v3"');
      expect(result.stdout).toBe('');
    }
    const fromEnv = await runInWorkspace(['arazzo', 'validate', file], { cwd: h.ws.dir, env: { TOOL_RUNNER: 'v9' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('the TOOL_RUNNER environment variable must be v1 or v2, got "v9"');
    expect(h.server.hits).toHaveLength(0);
  });

  it('takes the default from TOOL_RUNNER, and the flag wins over it', async () => {
    const v2 = await validate('v2-bad-criteria.arazzo.yaml', [], { TOOL_RUNNER: 'v2' });
    expect(v2.code).toBe(10);
    expect(v2.stdout).toMatch(/error CRITERION_SYNTAX /);

    const flagWins = await validate('v2-bad-criteria.arazzo.yaml', ['--tool-runner', 'v1'], { TOOL_RUNNER: 'v2' });
    expect(flagWins.code).toBe(0);
    expect(flagWins.stdout).toMatch(/warning SUCCESS_CRITERION_SKIPPED /);

    const flagWinsOverV1 = await validate('v2-bad-criteria.arazzo.yaml', ['--tool-runner', 'v2'], { TOOL_RUNNER: 'v1' });
    expect(flagWinsOverV1.code).toBe(10);
  });

  it('runs v2 from TOOL_RUNNER alone', async () => {
    h.server.setRoutes(OK);
    const file = h.ws.fixture('v2-criteria.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await runInWorkspace(['arazzo', 'run', file], { cwd: h.ws.dir, env: { TOOL_RUNNER: 'v2' } });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/SUCCESS_CRITERION_SKIPPED/);
    expect(trail(recordOf(result))).toEqual(['getJson:200', 'getXml:200']);
  });
});

describe('workflow calls: v2 runs them, v1 points at v2', () => {
  it('validate: no nested-workflow warning in v2; v1 warns with the v2 hint', async () => {
    const v2 = await validate('v2-not-yet.arazzo.yaml', ['--tool-runner', 'v2']);
    expect(v2.code).toBe(0);
    expect(v2.stdout).not.toMatch(/NESTED_WORKFLOW_UNSUPPORTED|V2_NOT_YET/);

    const v1 = await validate('v2-not-yet.arazzo.yaml');
    expect(v1.stdout).toContain('nested workflows are not supported by the v1 runner, so the step fails at runtime (runs with --tool-runner v2)');
  });

  it('run: v2 runs the nested workflow step; v1 fails it when reached', async () => {
    const v2 = await h.run('v2-not-yet.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', 'main'], OK);
    expect(v2.code).toBe(0);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/b']);

    const v1 = await h.run('v2-not-yet.arazzo.yaml', ['--workflow', 'main'], OK);
    expect(v1.code).toBe(1);
    expect(trail(recordOf(v1))).toEqual(['first:200']);
    expect(v1.stderr).toContain('(runs with --tool-runner v2)');
  });

  it('run: v2 runs dependsOn first; v1 refuses it before any request', async () => {
    const v2 = await h.run('runtime-depends-on.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', 'main'], { 'GET /a': {}, 'GET /b': {} });
    expect(v2.code).toBe(0);
    expect(v2.stderr).not.toContain('(runs with --tool-runner v2)');

    const v1 = await h.run('runtime-depends-on.arazzo.yaml', ['--workflow', 'main'], { 'GET /a': {}, 'GET /b': {} });
    expectNoRun(v1, 1);
    expect(v1.stderr).toContain('(runs with --tool-runner v2)');
  });

  it('a step chain and the workflow chain: v2 merges them by name, v1 keeps its presence rules', async () => {
    const routes = { 'GET /a': {}, 'GET /b': {}, 'GET /cleanup': {} };
    const validated = await validate('v2-chains.arazzo.yaml', ['--tool-runner', 'v2']);
    expect(validated.stdout).not.toContain('V2_NOT_YET');

    const v2 = await h.run('v2-chains.arazzo.yaml', ['--tool-runner', 'v2'], routes);
    expect(v2.code).toBe(0);
    const v1 = await h.run('v2-chains.arazzo.yaml', [], routes);
    expect(v1.code).toBe(0);
    expect(trail(recordOf(v1))).toEqual(['first:200', 'second:200', 'cleanup:200']);
  });

  it('run refuses --tool-bind with exit 2 in v1 (v2 binds: bind-flag.test.ts)', async () => {
    const result = await h.run('v2-not-yet.arazzo.yaml', ['--tool-runner', 'v1', '--tool-bind', 'api=petstore'], OK);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--tool-bind is not');
    expect(result.stderr).toContain('x-tool-api');
  });
});
