/**
 * Arazzo versions and runner profiles: 1.0.0 and 1.0.1 documents run under v1 and v2; a 1.1.x
 * document chooses the Arazzo 1.1 profile (the v2 engine with 1.1's additions) unless the v1
 * contract, which covers 1.0.x only, is asked for by name (exit 2); other versions are refused (exit 10).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const ROUTES = { 'GET /a': {} };

describe('the arazzo version and the runner profile', () => {
  it.each([['1.0.0'], ['1.0.1']])('runs an Arazzo %s document, in v2 and in v1', async (version) => {
    for (const runner of ['v2', 'v1']) {
      const result = await h.run('v2-version.arazzo.yaml', ['--tool-runner', runner], ROUTES, { vars: { ARAZZO: version } });
      expect(result.code).toBe(0);
      expect(trail(recordOf(result))).toEqual(['first:200']);
    }
  });

  it('runs an Arazzo 1.1.0 document with the 1.1 profile, without a flag and with --tool-runner v2', async () => {
    for (const args of [[], ['--tool-runner', 'v2']]) {
      const report = join(h.ws.dir, 'report.json');
      const result = await h.run('v2-version.arazzo.yaml', [...args, '--report', report], ROUTES, { vars: { ARAZZO: '1.1.0' } });
      expect(result.code).toBe(0);
      expect(trail(recordOf(result))).toEqual(['first:200']);
      // The 1.1 profile records the workflow of each step, as v2 does, and the report names it.
      expect(recordOf(result).steps[0]).toMatchObject({ stepId: 'first', workflowId: 'main' });
      expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ runner: 'arazzo-1.1' });
    }
  });

  it('types --input k:=json for a 1.1 document under the default runner', async () => {
    expect((await h.run('v2-version.arazzo.yaml', ['--input', 'n:=3'], ROUTES, { vars: { ARAZZO: '1.1.0' } })).code).toBe(0);
    // Read as JSON (v1 would take `n:` as the name and `[1` as a string).
    const bad = await h.run('v2-version.arazzo.yaml', ['--input', 'n:=[1'], ROUTES, { vars: { ARAZZO: '1.1.0' } });
    expectNoRun(bad, 2);
    expect(bad.stderr).toContain('--input n:= is not valid JSON');
  });

  it('refuses a 1.1.0 document when v1 is asked for by name: flag, TOOL_RUNNER or tool.config.yaml (exit 2, nothing sent)', async () => {
    const flag = await h.run('v2-version.arazzo.yaml', ['--tool-runner', 'v1'], ROUTES, { vars: { ARAZZO: '1.1.0' } });
    expectNoRun(flag, 2);
    expect(flag.stderr).toContain('--tool-runner asks for the v1 runner, whose contract covers Arazzo 1.0.x documents only, and this document is Arazzo 1.1.0');
    expect(flag.stderr).toContain('an Arazzo 1.1 document runs with the Arazzo 1.1 profile');
    expect(flag.stderr).not.toMatch(/\n\s+at /);
    expect(h.server.hits).toHaveLength(0);

    const file = h.ws.fixture('v2-version.arazzo.yaml', { ARAZZO: '1.1.0' });
    const env = await runInWorkspace(['arazzo', 'validate', file], { cwd: h.ws.dir, env: { TOOL_RUNNER: 'v1' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('the TOOL_RUNNER environment variable asks for the v1 runner');

    // A project folder of its own (the workspace is the home folder, which is never one).
    const project = join(h.ws.dir, 'project');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'tool.config.yaml'), 'runner: v1\n');
    copyFileSync(file, join(project, 'flow.arazzo.yaml'));
    const graph = await runInWorkspace(['arazzo', 'graph', join(project, 'flow.arazzo.yaml')], { cwd: h.ws.dir });
    expect(graph.code).toBe(2);
    expect(graph.stderr).toContain('tool.config.yaml (runner) asks for the v1 runner');
    expect(graph.stderr).toContain('Set runner: v2 in tool.config.yaml, or remove the key');
  });

  it('validates a 1.1.0 document with the 1.1 profile', async () => {
    const file = h.ws.fixture('v2-version.arazzo.yaml', { ARAZZO: '1.1.0' });
    const validate = await runInWorkspace(['arazzo', 'validate', file], { cwd: h.ws.dir });
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('arazzo-1.1');
  });

  it('refuses other versions as unsupported (exit 10), naming what each profile reads', async () => {
    const run = await h.run('v2-version.arazzo.yaml', [], ROUTES, { vars: { ARAZZO: '2.0.0' } });
    expectNoRun(run, 10);
    expect(run.stderr).toContain('arazzo version "2.0.0" is not supported; this runner reads Arazzo 1.0.x (e.g. "1.0.1")');
  });
});
