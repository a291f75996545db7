/**
 * The v2 runner's criterion types end to end (docs/arazzo-coverage.md): regex, jsonpath and xpath in
 * success criteria and in action criteria, against a real server; the same documents under v1 are
 * handled as v1 always handled them.
 */
import { describe, expect, it } from '@jest/globals';
import { recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const V2 = ['--tool-runner', 'v2'];
const XML = { 'content-type': 'application/xml' };
const order = (status: string) => ({ headers: XML, body: `<order><status>${status}</status><item/><item/></order>` });
const job = (state: string) => ({ headers: XML, body: `<job state="${state}"/>` });
const READY = { body: { id: 7, items: [{ status: 'waiting' }, { status: 'ready' }] } };

describe('arazzo run --tool-runner v2: regex, jsonpath and xpath success criteria', () => {
  it('succeeds when the regex, jsonpath and xpath criteria hold', async () => {
    const result = await h.run('v2-criteria.arazzo.yaml', V2, { 'GET /a': READY, 'GET /b': order('shipped') });
    expect(result.stderr).not.toMatch(/warning [A-Z_]+ /);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['getJson:200', 'getXml:200']);
    expect(record.outputs).toEqual({ id: 7 });
    expect(h.server.hits.map((hit) => `${hit.method} ${hit.path}`)).toEqual(['GET /a', 'GET /b']);
  });

  it('fails the step whose jsonpath criterion selects nothing, and sends nothing more', async () => {
    const result = await h.run('v2-criteria.arazzo.yaml', V2, { 'GET /a': { body: { id: 7, items: [{ status: 'waiting' }] } }, 'GET /b': order('shipped') });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['getJson:200']);
    expect(result.stderr).toContain('success criterion `$.items[?@.status == "ready"]` does not hold');
    expect(h.server.hits).toHaveLength(1);
  });

  it('fails the step whose regex does not match the JSON text of the body', async () => {
    const result = await h.run('v2-criteria.arazzo.yaml', V2, { 'GET /a': { body: { items: [{ status: 'ready' }], id: 7 } }, 'GET /b': order('shipped') });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['getJson:200']);
  });

  it('fails the step whose xpath is false, and says why when the body is not XML', async () => {
    const falseResult = await h.run('v2-criteria.arazzo.yaml', V2, { 'GET /a': READY, 'GET /b': order('packed') });
    expect(falseResult.code).toBe(1);
    expect(trail(recordOf(falseResult))).toEqual(['getJson:200', 'getXml:200']);

    const broken = await h.run('v2-criteria.arazzo.yaml', V2, { 'GET /a': READY, 'GET /b': { headers: XML, body: '<order><status>shipped</order>' } });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/xpath criterion .* does not hold: the context value is not well-formed XML/);
  });

  it('refuses a billion-laughs body harmlessly: the criterion does not hold', async () => {
    const lol = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><order><status>&lol3;</status></order>';
    const result = await h.run('v2-criteria.arazzo.yaml', V2, { 'GET /a': READY, 'GET /b': { headers: XML, body: lol } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/xpath criterion .* does not hold: the context value is not well-formed XML/);
  });

  it('under v1 skips the same criteria with a warning, as it always did', async () => {
    const result = await h.run('v2-criteria.arazzo.yaml', [], { 'GET /a': { body: { id: 7, items: [] } }, 'GET /b': order('packed') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning SUCCESS_CRITERION_SKIPPED /);
    expect(result.stderr).toContain('(runs with --tool-runner v2)');
    expect(trail(recordOf(result))).toEqual(['getJson:200', 'getXml:200']);
  });
});

describe('arazzo run --tool-runner v2: regex, jsonpath and xpath action criteria', () => {
  it('takes a goto whose jsonpath criterion holds', async () => {
    const result = await h.run('v2-action-criteria.arazzo.yaml', V2, { 'GET /a': { body: { jobs: [{ state: 'done' }] } }, 'GET /b': job('ok'), 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['check:200', 'cleanup:200']);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/cleanup']);
  });

  it('does not take the goto when its jsonpath selects nothing, and retries while an xpath criterion holds', async () => {
    const result = await h.run('v2-action-criteria.arazzo.yaml', V2, { 'GET /a': { body: { jobs: [{ state: 'busy' }] } }, 'GET /b': [job('pending'), job('pending'), job('ok')], 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['check:200', 'work:200', 'work:200', 'work:200', 'cleanup:200']);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a', '/b', '/b', '/b', '/cleanup']);
  });

  it('does not retry when the xpath action criterion does not hold: the step fails', async () => {
    const result = await h.run('v2-action-criteria.arazzo.yaml', V2, { 'GET /a': { body: { jobs: [] } }, 'GET /b': job('broken'), 'GET /cleanup': {} });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['check:200', 'work:200']);
  });

  it('under v1 fails the jsonpath action criterion when it is dispatched, as it always did', async () => {
    const result = await h.run('v2-action-criteria.arazzo.yaml', [], { 'GET /a': { body: { jobs: [{ state: 'done' }] } }, 'GET /b': job('ok'), 'GET /cleanup': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/warning UNSUPPORTED_ACTION_CRITERION /);
    expect(result.stderr).toContain('criteria of type jsonpath are not supported in v1 (runs with --tool-runner v2)');
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a']);
  });
});

describe('arazzo validate --tool-runner v2: criteria', () => {
  it('reports a regex, jsonpath or xpath that does not compile as an error, and Goessner script as refused', async () => {
    const file = h.ws.fixture('v2-bad-criteria.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await h.tool(['arazzo', 'validate', file, '--tool-runner', 'v2']);
    expect(result.code).toBe(10);
    const codes = result.stdout.split('\n').filter((line) => / (error|warning) /.test(line));
    expect(codes.filter((line) => / error CRITERION_SYNTAX /.test(line))).toHaveLength(4);
    expect(result.stdout).toMatch(/regex criterion `\(unclosed` does not compile/);
    expect(result.stdout).toMatch(/jsonpath criterion `\$\.items\[` does not compile/);
    expect(result.stdout).toMatch(/xpath criterion `\/order\[` does not compile: .*XPST0003/);
    expect(result.stdout).toMatch(/never evaluates script/);
    expect(result.stdout).toMatch(/warning CRITERION_CONTEXT_IGNORED /);
    expect(result.stdout).not.toMatch(/SUCCESS_CRITERION_SKIPPED/);
  });

  it('under v1 warns about the same criteria as skipped, as it always did', async () => {
    const file = h.ws.fixture('v2-bad-criteria.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await h.tool(['arazzo', 'validate', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/warning SUCCESS_CRITERION_SKIPPED /);
    expect(result.stdout).not.toMatch(/CRITERION_SYNTAX/);
  });

  it('accepts the working documents, and draws them', async () => {
    for (const fixture of ['v2-criteria.arazzo.yaml', 'v2-action-criteria.arazzo.yaml']) {
      const file = h.ws.fixture(fixture, { BASE_URL: h.server.url });
      const validated = await h.tool(['arazzo', 'validate', file, '--tool-runner', 'v2']);
      expect(validated.stdout).toMatch(/all features are supported by the v2 runner/);
      expect(validated.code).toBe(0);
      const graph = await h.tool(['arazzo', 'graph', file, '--tool-runner', 'v2']);
      expect(graph.code).toBe(0);
      expect(graph.stdout).toMatch(/s0_\w+/);
    }
  });
});


describe('arazzo run --tool-runner v2: a regex that backtracks without end', () => {
  it('is stopped after its time limit: the criterion does not hold, the step fails, nothing more is sent', async () => {
    const result = await h.run('v2-regex-backtracking.arazzo.yaml', V2, { 'GET /a': { body: { text: 'a'.repeat(40) } }, 'GET /b': {} });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['slow:200']);
    expect(result.stderr).toMatch(/regex criterion `\^\(a\+\)\+b\$` does not hold: the pattern ran for more than 1 s on 40 characters and was stopped/);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a']);
  });
});
