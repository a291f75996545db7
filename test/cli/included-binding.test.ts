/**
 * v2 (docs/run.md#binding): a source of an included Arazzo document binds by description, not by
 * name. A registered API with the source's name binds it only when it was registered with that
 * description (`--spec`); otherwise the source uses its own servers, with a warning naming both, so
 * its calls never go to the caller's API by accident. `--tool-bind <arazzo-source>.<source>=<api>`
 * binds it on purpose; one that names nothing the run opens exits 2 before any request.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { expectNoRun } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const FIXTURE = 'v2-included-binding.arazzo.yaml';
const V2 = ['--tool-runner', 'v2'];
const ROUTES = { 'GET /api/v3/a': {}, 'GET /api/v3/ping': {}, 'GET /child-api/v1/ping': {} };
const paths = () => h.server.hits.map((hit) => hit.path);

beforeAll(async () => {
  for (const fixture of ['included-binding/child.arazzo.yaml', 'included-binding/child.openapi.yaml']) h.ws.fixture(fixture, { BASE_URL: h.server.url });
  expect((await h.tool(['api', 'add', 'api', `${h.server.url}/api/v3`])).code).toBe(0);
});

describe('a source of an included Arazzo document with the name of a registered API', () => {
  it('is not bound to it by name: its calls go to its own server, with a warning naming both', async () => {
    const result = await h.run(FIXTURE, V2, ROUTES);
    expect(result.code).toBe(0);
    // The run's own source "api" still binds by name; the child's goes to the child's server.
    expect(paths()).toEqual(['/api/v3/a', '/child-api/v1/ping']);
    expect(result.stderr).toContain('warning: included-binding/child.arazzo.yaml: source "api" (description ');
    expect(result.stderr).toContain('is not bound to API "api", registered without a description; its requests go to its own server');
    expect(result.stderr).toContain('--tool-bind child.api=api');
  });

  it('is bound with --tool-bind <arazzo-source>.<source>=<api>', async () => {
    const result = await h.run(FIXTURE, [...V2, '--tool-bind', 'child.api=api', '--verbose'], ROUTES);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['/api/v3/a', '/api/v3/ping']);
    expect(result.stderr).not.toContain('is not bound to API');
    expect(result.stderr).toContain('api: bound to API "api" (--tool-bind)');
  });

  it('refuses a --tool-bind that names no Arazzo source or source the run opens (exit 2, nothing sent)', async () => {
    const unknownDocument = await h.run(FIXTURE, [...V2, '--tool-bind', 'chld.api=api'], ROUTES);
    expectNoRun(unknownDocument, 2);
    expect(unknownDocument.stderr).toContain('--tool-bind chld.api=api: the run reaches no Arazzo source "chld" (did you mean "child"?)');
    const unknownSource = await h.run(FIXTURE, [...V2, '--tool-bind', 'child.apx=api'], ROUTES);
    expectNoRun(unknownSource, 2);
    expect(unknownSource.stderr).toContain('--tool-bind child.apx=api: Arazzo source "child" has no OpenAPI source named "apx" (did you mean "api"?)');
    expect(h.server.hits).toHaveLength(0);
  });

  it('is bound by name when the API was registered with that description', async () => {
    expect((await h.tool(['api', 'remove', 'api'])).code).toBe(0);
    const spec = join(h.ws.dir, 'included-binding', 'child.openapi.yaml');
    expect((await h.tool(['api', 'add', 'api', `${h.server.url}/api/v3`, '--spec', spec])).code).toBe(0);
    const result = await h.run(FIXTURE, V2, ROUTES);
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['/api/v3/a', '/api/v3/ping']);
    expect(result.stderr).not.toContain('is not bound to API');
  });
});
