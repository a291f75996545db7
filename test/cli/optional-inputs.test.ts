/**
 * v2 (docs/run.md#inputs): a parameter, body member, replacement or nested call's parameter whose
 * value is an input the workflow's schema declares but does not require, and that the run was not
 * given, is left out (a --verbose note says so) instead of failing the step. A required input that
 * is missing is still refused before anything is sent, and an input the schema does not declare
 * still fails the step that needs it.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const V2 = ['--tool-runner', 'v2'];
const MAIN = [...V2, '--workflow', 'main'];
const ROUTES = { 'GET /items': { status: 200, body: [] }, 'POST /items': { status: 201, body: { id: 1 } } };
const FIXTURE = 'v2-optional-inputs.arazzo.yaml';

describe('arazzo run --tool-runner v2: optional inputs not given', () => {
  it('leaves out the parameters and body members made of them, quietly, and sends the rest', async () => {
    const result = await h.run(FIXTURE, [...MAIN, '--input', 'name=Ada'], ROUTES);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['list:200', 'create:201']);
    const [list, create] = h.server.hits;
    expect(list!.query).toEqual({});
    expect(list!.headers['x-trace']).toBeUndefined();
    expect(JSON.parse(create!.body)).toEqual({ name: 'Ada', profile: { greeting: 'hello Ada' } });
    expect(result.stderr).not.toMatch(/left out|not sent|resolved to nothing/);
  });

  it('says what it left out under --verbose', async () => {
    const result = await h.run(FIXTURE, [...MAIN, '--input', 'name=Ada', '--verbose'], ROUTES);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('step "list": $inputs.q was not given and the workflow does not require it, so parameter "q" (query) is left out');
    expect(result.stderr).toContain('step "create": $inputs.nickname was not given and the workflow does not require it, so request body member /nickname is left out');
    expect(result.stderr).toContain('request body member /profile/tags is left out');
  });

  it('sends them when given', async () => {
    const result = await h.run(FIXTURE, [...MAIN, '--input', 'name=Ada', '--input', 'nickname=A', '--input', 'q=x', '--input', 'tags=t'], ROUTES);
    expect(result.code).toBe(0);
    expect(h.server.hits[0]!.query).toEqual({ q: 'x' });
    expect(JSON.parse(h.server.hits[1]!.body)).toEqual({ name: 'Ada', nickname: 'A', profile: { tags: 't', greeting: 'hello Ada' } });
  });

  it('leaves the dry run without them too', async () => {
    const result = await h.run(FIXTURE, [...MAIN, '--input', 'name=Ada', '--dry-run'], ROUTES);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('$inputs.nickname');
    expect(result.stderr).not.toContain('q=');
  });

  it('does not pass one to a called workflow, whose own default then applies', async () => {
    const result = await h.run(FIXTURE, [...V2, '--workflow', 'caller', '--input', 'name=Ada'], ROUTES);
    expect(result.code).toBe(0);
    expect(JSON.parse(h.server.hits[0]!.body)).toEqual({ name: 'Ada', nickname: 'none' });
  });

  it('still refuses a required input that is missing, before anything is sent', async () => {
    const result = await h.run(FIXTURE, MAIN, ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('input "name" is required by workflow "main"');
    expect(h.server.hits).toHaveLength(0);
  });

  it('still fails the step when the workflow declares no such input', async () => {
    const result = await h.run(FIXTURE, [...V2, '--workflow', 'undeclared'], ROUTES);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('$inputs.name resolved to nothing');
    expect(h.server.hits).toHaveLength(0);
  });
});
