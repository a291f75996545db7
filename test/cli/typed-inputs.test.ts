/**
 * v2 inputs (docs/run.md#inputs): the workflow's inputs schema applied before anything is sent:
 * command-line strings coerced to the declared type, `k:=<json>` values, defaults (also through
 * `$ref: '#/components/inputs/…'`), and a missing or mistyped input refused with exit 2. v1 keeps
 * its opaque strings, and `k:=v` stays an input named `k:`.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const V2 = ['--tool-runner', 'v2'];
const CREATED = { 'POST /items': { status: 201, body: { id: 1 } } };

function sentBody(): unknown {
  expect(h.server.hits).toHaveLength(1);
  return JSON.parse(h.server.hits[0]!.body);
}

describe('arazzo run --tool-runner v2: inputs', () => {
  it('coerces --input strings to the declared integer and boolean, and fills in defaults', async () => {
    const result = await h.run('v2-inputs.arazzo.yaml', [...V2, '--input', 'petId=42', '--input', 'verbose=true'], CREATED);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['create:201']);
    expect(sentBody()).toEqual({ petId: 42, verbose: true, filter: { tags: [] }, page: { limit: 10 } });
  });

  it('coerces through an inputs schema given by $ref, allOf members and property $refs', async () => {
    const result = await h.run('v2-inputs-ref.arazzo.yaml', [...V2, '--input', 'petId=10', '--input', 'verbose=false', '--input', 'ratio=0.5'], CREATED);
    expect(result.code).toBe(0);
    expect(sentBody()).toEqual({ petId: 10, verbose: false, ratio: 0.5 });
  });

  it('takes a JSON value from --input k:=<json>', async () => {
    const result = await h.run('v2-inputs.arazzo.yaml', [...V2, '--input', 'petId:=7', '--input', 'filter:={"tags":["a","b"]}', '--input', 'page:={"limit":3}'], CREATED);
    expect(result.code).toBe(0);
    expect(sentBody()).toEqual({ petId: 7, verbose: false, filter: { tags: ['a', 'b'] }, page: { limit: 3 } });
  });

  it('keeps the JSON types of --inputs-file values', async () => {
    h.ws.write('inputs.json', JSON.stringify({ petId: 5, verbose: true }));
    const result = await h.run('v2-inputs.arazzo.yaml', [...V2, '--inputs-file', 'inputs.json'], CREATED);
    expect(result.code).toBe(0);
    expect(sentBody()).toEqual({ petId: 5, verbose: true, filter: { tags: [] }, page: { limit: 10 } });
  });

  it('refuses a missing required input with exit 2 before any request, naming it and the flag', async () => {
    const result = await h.run('v2-inputs.arazzo.yaml', [...V2, '--input', 'verbose=true'], CREATED);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('input "petId" is required by workflow "main"');
    expect(result.stderr).toContain('--input petId=<value>');
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses a value of the wrong type with exit 2 before any request', async () => {
    for (const args of [['--input', 'petId=abc'], ['--input', 'petId=4294967296'], ['--input', 'petId=1', '--input', 'filter=x'], ['--input', 'petId=1', '--input', 'verbose=yes']]) {
      const result = await h.run('v2-inputs.arazzo.yaml', [...V2, ...args], CREATED);
      expectNoRun(result, 2);
      expect(result.stderr).toMatch(/input "(petId|filter|verbose)" must/);
      expect(h.server.hits).toHaveLength(0);
    }
  });

  it('refuses --input k:= with invalid JSON with exit 2, without echoing the value', async () => {
    const result = await h.run('v2-inputs.arazzo.yaml', [...V2, '--input', 'petId=1', '--input', 'filter:={tags: s3cr3t'], CREATED);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--input filter:= is not valid JSON');
    expect(result.stderr).not.toContain('s3cr3t');
  });

  it('refuses --input k:= nested deeper than a document may be with exit 2, before anything runs', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const result = await h.run('v2-inputs.arazzo.yaml', [...V2, '--input', 'petId=1', '--input', `filter:=${deep}`], CREATED);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--input filter:= nests deeper than 256 levels');
  });

  it('refuses an inputs schema that does not compile as an invalid document (exit 10), with its location', async () => {
    const badType = await h.run('v2-inputs-bad-schema.arazzo.yaml', [...V2, '--workflow', 'badType'], CREATED);
    expectNoRun(badType, 10);
    expect(badType.stderr).toMatch(/v2-inputs-bad-schema\.arazzo\.yaml:\d+:\d+: the inputs schema of workflow "badType" is not valid JSON Schema 2020-12/);

    const missing = await h.run('v2-inputs-bad-schema.arazzo.yaml', [...V2, '--workflow', 'missingComponent'], CREATED);
    expectNoRun(missing, 10);
    expect(missing.stderr).toContain('refers to "#/components/inputs/nowhere", which components.inputs does not define');
    expect(h.server.hits).toHaveLength(0);
  });

  it('under v1 sends the inputs as strings, and k:=v names an input "k:", as it always did', async () => {
    const strings = await h.run('v2-inputs.arazzo.yaml', ['--input', 'petId=42', '--input', 'verbose=true', '--input', 'filter=x', '--input', 'page=1'], CREATED);
    expect(strings.code).toBe(0);
    expect(sentBody()).toEqual({ petId: '42', verbose: 'true', filter: 'x', page: '1' });

    const colon = await h.run('v2-inputs.arazzo.yaml', ['--input', 'petId=42', '--input', 'verbose=true', '--input', 'filter:={}', '--input', 'page=1'], CREATED);
    expect(colon.code).toBe(1);
    expect(colon.stderr).toContain('--input filter=<value>');
    expect(h.server.hits).toHaveLength(0);
  });
});
