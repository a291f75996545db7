/**
 * The v2 runner runs workflows of sources of type `arazzo`, end to end against a real local
 * server: a nested step calling a source's workflow (the source in a subfolder, with its own
 * OpenAPI source and components), a goto and a dependsOn to one, a remote source fetched once,
 * the read rules (a source outside the document's folder), an unknown workflow, an invalid source,
 * and an unused source that is never fetched.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { fillTemplate, RUN_FIXTURES } from '../e2e/helpers/workspace.js';
import { STACK_FRAME } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { nestedRecordOf, nestedTrail } from './nested-record.js';

const h = useRunHarness();

const recordOf = nestedRecordOf;
const trail = nestedTrail;

const paths = () => h.server.hits.map((hit) => `${hit.method} ${hit.path}`);
const run = (workflow: string, routes: Parameters<typeof h.run>[2], extra: string[] = []) =>
  h.run('v2-arazzo-sources.arazzo.yaml', ['--tool-runner', 'v2', '--workflow', workflow, ...extra], routes);
const served = (fixture: string) => ({ headers: { 'content-type': 'application/yaml' }, body: fillTemplate(readFileSync(join(RUN_FIXTURES, fixture), 'utf8'), { BASE_URL: h.server.url }) });

beforeAll(() => {
  for (const fixture of ['arazzo-sources/lib.arazzo.yaml', 'arazzo-sources/lib.openapi.yaml', 'arazzo-sources/broken.arazzo.yaml', 'arazzo-sources/not-yaml.arazzo.yaml']) h.ws.fixture(fixture, { BASE_URL: h.server.url });
});

describe('a nested step calling a workflow of an Arazzo source', () => {
  it('runs it with the source\'s own components and OpenAPI source; the child records carry its workflowId', async () => {
    const result = await run('callLib', { 'GET /a': { body: { id: 7 } }, 'GET /lib/items/{id}': { body: { name: 'seven' } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(paths()).toEqual(['GET /a', 'GET /lib/items/7']);
    // The source's $components.parameters.libHeader, not the calling document's of the same name.
    expect(h.server.hits[1]!.headers['x-lib']).toBe('from-lib');
    expect(trail(record.steps)).toEqual(['callLib.first:200', 'callLib.callFetch:0[fetchItem.get:200]']);
    expect(record.steps[1]!.outputs).toEqual({ name: 'seven', source: 'libApi' });
    expect(record.outputs).toEqual({ name: 'seven', source: 'libApi' });
    expect(result.stderr).toContain('callFetch/get GET');
    expect(result.stderr).toContain('callFetch → workflow fetchItem');
  });

  it('checks the call\'s inputs against the schema the source declares (its own components.inputs)', async () => {
    const result = await run('callLib', { 'GET /a': { body: { id: 'seven' } }, 'GET /lib/items/{id}': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('itemId');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(paths()).toEqual(['GET /a']);
  });

  it('inside the source, a nested call names its workflows by id, and $workflows.<id> reads them', async () => {
    const result = await run('callTwice', { 'GET /lib/items/{id}': (hit) => ({ body: { name: hit.path === '/lib/items/3' ? 'three' : 'again' } }) });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(paths()).toEqual(['GET /lib/items/3', 'GET /lib/items/three']);
    expect(trail(record.steps)).toEqual(['callTwice.callLibTwice:0[twice.callFetch:0[fetchItem.get:200] twice.again:200]']);
    expect(record.outputs).toEqual({ last: 'again' });
  });
});

describe('a goto and a dependsOn to a workflow of an Arazzo source', () => {
  it('a goto transfers to it: the record lists its steps and the transfer by key', async () => {
    const result = await run('gotoLib', { 'GET /a': {}, 'GET /lib/done': { body: { done: true } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(paths()).toEqual(['GET /a', 'GET /lib/done']);
    expect(trail(record.steps)).toEqual(['gotoLib.first:200', 'finish.done:200']);
    expect(record.transfers).toEqual([{ from: 'gotoLib', stepId: 'first', to: 'lib.finish' }]);
    expect(record.outputs).toEqual({ done: true });
  });

  it('a dependsOn runs it first', async () => {
    const result = await run('dependsLib', { 'GET /lib/token': { body: { token: 't-1' } }, 'GET /b': {} });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(paths()).toEqual(['GET /lib/token', 'GET /b']);
    expect(record.dependencies?.map((d) => [d.workflowId, d.outputs, trail(d.steps)])).toEqual([['prepare', { token: 't-1' }, ['prepare.token:200']]]);
    expect(trail(record.steps)).toEqual(['dependsLib.after:200']);
  });
});

describe('loading an Arazzo source', () => {
  it('a source that cannot be fetched exits 2, as an OpenAPI description does (before any copy is cached)', async () => {
    const result = await run('callRemote', { 'GET /remote/lib.arazzo.yaml': { status: 404 } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\/remote\/lib\.arazzo\.yaml: cannot fetch the Arazzo document: HTTP 404/);
    expect(paths()).toEqual(['GET /remote/lib.arazzo.yaml']);
  });

  it('fetches a remote source once per run, through the description fetch, and resolves its own sources against its URL', async () => {
    const result = await run('callRemote', {
      'GET /remote/lib.arazzo.yaml': served('arazzo-sources/lib.arazzo.yaml'),
      'GET /remote/lib.openapi.yaml': served('arazzo-sources/lib.openapi.yaml'),
      'GET /lib/token': { body: { token: 't' } },
      'GET /lib/done': { body: { done: 'yes' } },
    });
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['GET /remote/lib.arazzo.yaml', 'GET /remote/lib.openapi.yaml', 'GET /lib/token', 'GET /lib/done']);
    expect(trail(recordOf(result).steps)).toEqual(['callRemote.prepareFirst:0[prepare.token:200]', 'callRemote.thenFinish:0[finish.done:200]']);
    expect(recordOf(result).outputs).toEqual({ done: 'yes' });
  });

  it('never fetches an Arazzo source no reference reaches (the unused one is not even served)', async () => {
    const result = await run('gotoLib', { 'GET /a': {}, 'GET /lib/done': { body: { done: true } } });
    expect(result.code).toBe(0);
    expect(paths()).not.toContain('GET /unused.arazzo.yaml');
    expect(paths()).not.toContain('GET /remote/lib.arazzo.yaml');
  });

  it('refuses a source outside the document\'s folder without --tool-allow-read (exit 2, nothing sent), and runs with it', async () => {
    const refused = await h.run('arazzo-sources-outside/flow.arazzo.yaml', ['--tool-runner', 'v2'], { 'GET /lib/done': { body: { done: 1 } } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to read the Arazzo document: it resolves to .*arazzo-sources\/lib\.arazzo\.yaml, outside the allowed folder .*; pass --tool-allow-read arazzo-sources if you trust it/);
    expect(refused.stderr).not.toMatch(STACK_FRAME);
    expect(h.server.hits).toHaveLength(0);

    const allowed = await h.run('arazzo-sources-outside/flow.arazzo.yaml', ['--tool-runner', 'v2', '--tool-allow-read', 'arazzo-sources'], { 'GET /lib/done': { body: { done: 1 } } });
    expect(allowed.code).toBe(0);
    expect(recordOf(allowed).outputs).toEqual({ done: 1 });
    expect(paths()).toEqual(['GET /lib/done']);
  });

});

describe('invalid references and sources', () => {
  it('a workflow the source does not declare is a validation error with a suggestion (exit 10, nothing sent)', async () => {
    const result = await h.run('v2-arazzo-sources-unknown.arazzo.yaml', ['--tool-runner', 'v2'], { 'GET /a': {} });
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(
      /v2-arazzo-sources-unknown\.arazzo\.yaml:12:\d+ error UNKNOWN_WORKFLOW step "callLib" names workflow "fetchItme" of source "lib", which \.\/arazzo-sources\/lib\.arazzo\.yaml does not declare \(did you mean "fetchItem"\?\)/,
    );
    expect(result.stderr).toContain('v2-arazzo-sources-unknown.arazzo.yaml is not a valid workflow document (1 error); nothing was sent');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(h.server.hits).toHaveLength(0);
  });

  it('arazzo validate --tool-runner v2 reports it too, reading the local source', async () => {
    const file = h.ws.fixture('v2-arazzo-sources-unknown.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await h.tool(['arazzo', 'validate', file, '--tool-runner', 'v2']);
    expect(result.code).toBe(10);
    expect(result.stdout).toMatch(/:12:\d+ error UNKNOWN_WORKFLOW .*\(did you mean "fetchItem"\?\)/);
    const valid = await h.tool(['arazzo', 'validate', h.ws.fixture('v2-arazzo-sources.arazzo.yaml', { BASE_URL: h.server.url }), '--tool-runner', 'v2']);
    expect(valid.stdout).not.toMatch(/UNKNOWN_WORKFLOW|V2_NOT_YET|UNSUPPORTED_SOURCE_TYPE/);
    expect(valid.stdout).toMatch(/warning SOURCE_NOT_CHECKED Arazzo source "notYaml" could not be read, so the workflows named in it were not checked: .*invalid YAML/);
    expect(valid.code).toBe(0);
    expect(h.server.hits).toHaveLength(0);
  });

  it('an invalid source stops the run with its own findings, naming its file and line (exit 10)', async () => {
    const result = await run('callBroken', {});
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/arazzo-sources\/broken\.arazzo\.yaml:8:\d+ error STEP_WITHOUT_OPERATION /);
    expect(result.stderr).toMatch(/error: arazzo-sources\/broken\.arazzo\.yaml \(Arazzo source "broken" of .*v2-arazzo-sources\.arazzo\.yaml\) is not a valid workflow document \(1 error\); nothing was sent/);
    expect(result.stderr).toContain('Run `tool arazzo validate arazzo-sources/broken.arazzo.yaml --tool-runner v2` for details.');
    expect(h.server.hits).toHaveLength(0);
  });

  it('a source that is not YAML is an invalid document naming its file and line (exit 10)', async () => {
    const result = await run('callNotYaml', {});
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/error: arazzo-sources\/not-yaml\.arazzo\.yaml:\d+:\d+: invalid YAML/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses a source that is a FIFO at once (exit 2), as it refuses such a description', async () => {
    const pipe = join(h.ws.dir, 'arazzo-sources', 'pipe.arazzo.yaml');
    if (!existsSync(pipe)) execFileSync('mkfifo', [pipe]);
    const flow = h.ws.write(
      'pipe-flow.arazzo.yaml',
      "arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions:\n  - {name: pipe, url: ./arazzo-sources/pipe.arazzo.yaml, type: arazzo}\nworkflows:\n  - workflowId: main\n    steps:\n      - {stepId: callIt, workflowId: $sourceDescriptions.pipe.w}\n",
    );
    const result = await h.tool(['arazzo', 'run', flow, '--tool-runner', 'v2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pipe.arazzo.yaml: refusing to read the Arazzo document: is not a regular file (a FIFO, socket or device)');
    expect(h.server.hits).toHaveLength(0);
  });

  it.each([
    ['an INI file', 'Ini', 'text/plain', '[default]\naws_access_key_id = AKIAEXAMPLESECRET1\naws_secret_access_key = s3cr3t/value\n'],
    ['an .env file', 'Env', 'text/plain', 'API_TOKEN=AKIAEXAMPLESECRET1\nDB_PASSWORD=s3cr3t/value\n'],
    ['JSON of another kind', 'Json', 'application/json', '{"AKIAEXAMPLESECRET1": {"s3cr3t/value": 1}}'],
  ])('never prints the text of a fetched source that is %s (exit 10, position only)', async (_what, name, type, body) => {
    const result = await run(`callFetched${name}`, { [`GET /fetched/${name.toLowerCase()}.arazzo.yaml`]: { headers: { 'content-type': type }, body } });
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/fetched\/\w+\.arazzo\.yaml(:\d+:\d+)?: the fetched (Arazzo source is not a valid YAML or JSON document|text is not an Arazzo document \(it has no "arazzo" version\)); its text is not shown; nothing was sent/);
    expect(result.stderr).not.toContain('AKIAEXAMPLESECRET1');
    expect(result.stderr).not.toContain('s3cr3t');
    expect(result.stdout).toBe('');
  });

  it('v1 is unchanged: a source of type arazzo is a warning pointing at v2', async () => {
    const result = await run('callLib', { 'GET /a': { body: { id: 7 } } }, ['--tool-runner', 'v1']);
    expect(result.stderr).toContain('UNSUPPORTED_SOURCE_TYPE');
    expect(paths()).not.toContain('GET /lib/items/7');
  });
});
