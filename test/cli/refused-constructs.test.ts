/**
 * Constructs the v1 runner does not execute are never skipped silently: `dependsOn` refuses the
 * run before any request, a body with `replacements` is not sent without them, and a retry with a
 * target fails when dispatched. Every such message ends with the hint `(runs with --tool-runner v2)`.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const OK = { 'GET /a': {}, 'GET /b': {}, 'GET /cleanup': {}, 'POST /items': { status: 201, body: { id: 1 } } };
const HINT = '(runs with --tool-runner v2)';

function failureLine(stderr: string): string {
  return stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';
}

describe('arazzo run: constructs v1 does not execute', () => {
  it('refuses a workflow with dependsOn before any request, naming it, its dependencies and where', async () => {
    const result = await h.run('runtime-depends-on.arazzo.yaml', ['--workflow', 'main'], OK);
    expectNoRun(result, 1);
    expect(result.stderr).toMatch(/warning DEPENDS_ON_UNSUPPORTED /);
    const line = failureLine(result.stderr);
    expect(line).toMatch(/^error: .*runtime-depends-on\.arazzo\.yaml:10:\d+: workflow "main" depends on "setup"/);
    expect(line.endsWith(HINT)).toBe(true);
    expect(result.stderr).toContain('--workflow setup');
    expect(h.server.hits).toHaveLength(0);
  });

  it('runs the dependency itself, which has no dependsOn', async () => {
    const result = await h.run('runtime-depends-on.arazzo.yaml', ['--workflow', 'setup'], OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['prepare:200']);
  });

  it('fails a step with requestBody.replacements before sending its request', async () => {
    const result = await h.run('runtime-replacements.arazzo.yaml', [], OK);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/warning REPLACEMENTS_UNSUPPORTED /);
    expect(trail(recordOf(result))).toEqual(['first:200']);
    const line = failureLine(result.stderr);
    expect(line).toMatch(/workflow "main" failed at step "create": requestBody\.replacements are not supported in v1/);
    expect(line.endsWith(HINT)).toBe(true);
    expect(h.server.hits.map((hit) => `${hit.method} ${hit.path}`)).toEqual(['GET /a']);
  });

  it('fails a retry action with a stepId when it is dispatched, without retrying', async () => {
    const result = await h.run('runtime-retry-target.arazzo.yaml', [], { ...OK, 'GET /a': { status: 409 } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/warning RETRY_TARGET_UNSUPPORTED /);
    const line = failureLine(result.stderr);
    expect(line).toMatch(/failed at step "first": action "retryFromCleanup": a retry that goes on to step "cleanup" is not supported in v1/);
    expect(line.endsWith(HINT)).toBe(true);
    expect(h.server.count('GET /a')).toBe(1);
    expect(h.server.count('GET /cleanup')).toBe(0);
  });

  it('runs normally when the retry with a target is never dispatched', async () => {
    const result = await h.run('runtime-retry-target.arazzo.yaml', [], OK);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200', 'cleanup:200']);
  });

  it.each([
    ['runtime-cross-workflow-goto.arazzo.yaml', ['--workflow', 'main'], { ...OK, 'GET /a': { status: 409 } }],
    ['runtime-operation-path.arazzo.yaml', [], OK],
    ['runtime-nested-workflow.arazzo.yaml', ['--workflow', 'outer'], OK],
    ['runtime-replay.arazzo.yaml', [], { ...OK, 'GET /a': { status: 409 } }],
  ])('ends the runtime message of %s with the v2 hint, and its warning too', async (fixture, args, routes) => {
    const result = await h.run(fixture, args, routes);
    expect(result.code).toBe(1);
    expect(failureLine(result.stderr).endsWith(HINT)).toBe(true);
    const warnings = result.stderr.split('\n').filter((line) => / warning [A-Z_]+_(UNSUPPORTED|GOTO|SUPPORTED) /.test(line));
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) expect(warning.endsWith(HINT)).toBe(true);
  });
});
