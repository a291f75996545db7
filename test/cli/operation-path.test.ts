/**
 * v2 runs operationPath steps: the fragment is percent-decoded, then read as an RFC 6901 pointer to
 * `/paths/<path>/<method>` of the named source; path-level and operation-level parameters apply as
 * for an operationId. One that names no operation is a validation error (exit 10) with a suggestion.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { copyOfficial, writeStandIn } from '../e2e/helpers/official.js';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const ROUTES = {
  'GET /stores/{storeId}/pets/{petId}': { body: { name: 'Rex' } },
  'PUT /users/~me/notes/{id}': { body: {} },
  'DELETE /stores/{storeId}/pets/{petId}': { status: 204 },
};

beforeAll(() => {
  h.ws.fixture('v2-operation-path.openapi.yaml', { BASE_URL: h.server.url });
});

function validate(fixture: string, runner: 'v1' | 'v2') {
  const file = h.ws.fixture(fixture, { BASE_URL: h.server.url });
  return runInWorkspace(['arazzo', 'validate', file, '--tool-runner', runner], { cwd: h.ws.dir });
}

describe('operationPath under --tool-runner v2', () => {
  it('sends each step to the path and method its pointer names, ~1, ~0 and percent-escapes decoded', async () => {
    const result = await h.run('v2-operation-path.arazzo.yaml', ['--tool-runner', 'v2'], ROUTES);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['getPet:200', 'writeNote:200', 'deletePet:204']);
    expect(record.outputs).toEqual({ name: 'Rex' });
    expect(h.server.hits.map((hit) => `${hit.method} ${hit.path}`)).toEqual(['GET /stores/s1/pets/7', 'PUT /users/~me/notes/n1', 'DELETE /stores/s1/pets/7']);
    expect(h.server.hits[1]!.body).toBe('{"about":"Rex"}');
  });

  it('applies path-level parameters: their style, and the workflow parameters they declare', async () => {
    await h.run('v2-operation-path.arazzo.yaml', ['--tool-runner', 'v2'], ROUTES);
    // tags is declared on the path item with style form, explode false; region only there too.
    expect(h.server.hits[0]!.query).toEqual({ tags: 'a,b', region: 'eu' });
    // The other operation of the same path item gets the workflow's region as well.
    expect(h.server.hits[2]!.query).toEqual({ region: 'eu' });
    // The PUT's path item does not declare region: a query parameter it lacks is not sent.
    expect(h.server.hits[1]!.query).toEqual({});
  });

  it('validates the document without the v1 operationPath warning', async () => {
    const v2 = await validate('v2-operation-path.arazzo.yaml', 'v2');
    expect(v2.code).toBe(0);
    expect(v2.stdout).not.toContain('OPERATION_PATH');
    const v1 = await validate('v2-operation-path.arazzo.yaml', 'v1');
    expect(v1.stdout).toContain('warning OPERATION_PATH_UNSUPPORTED');
  });

  it('reports a path, a method or a source that does not exist as a validation error with a suggestion (exit 10)', async () => {
    const result = await validate('v2-operation-path-bad.arazzo.yaml', 'v2');
    expect(result.code).toBe(10);
    const lines = result.stdout.split('\n');
    const line = (code: string, step: string) => lines.find((l) => l.includes(` error ${code} `) && l.includes(`step "${step}"`)) ?? '';
    expect(line('OPERATION_NOT_FOUND', 'typoInPath')).toMatch(
      /v2-operation-path-bad\.arazzo\.yaml:9:24 error OPERATION_NOT_FOUND step "typoInPath": operationPath names no operation: source "shop" has no path "\/stores\/\{storeId\}\/pet\/\{petId\}" \(did you mean "\/stores\/\{storeId\}\/pets\/\{petId\}"\?\)$/,
    );
    expect(line('OPERATION_NOT_FOUND', 'wrongMethod')).toContain('path "/users/~me/notes/{id}" of source "shop" has no post operation; it has put');
    expect(line('UNKNOWN_SOURCE', 'unknownSource')).toContain('operationPath names source "shopp", which the document does not declare (did you mean "shop"?)');
    expect(line('OPERATION_PATH_SYNTAX', 'notAnOperation')).toContain('the pointer "/paths/~1users~1~0me~1notes~1{id}" names a path item, not an operation; add the method: /paths/~1users~1~0me~1notes~1{id}/put');
  });

  it('refuses to run a document whose operationPath names no operation (exit 10, nothing sent)', async () => {
    const result = await h.run('v2-operation-path-bad.arazzo.yaml', ['--tool-runner', 'v2'], ROUTES);
    expectNoRun(result, 10);
    expect(result.stderr).toContain('(did you mean "/stores/{storeId}/pets/{petId}"?)');
    expect(h.server.hits).toHaveLength(0);
  });

  it('keeps v1 as it was: the operationPath step fails when reached, pointing at v2', async () => {
    const result = await h.run('v2-operation-path.arazzo.yaml', [], ROUTES);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual([]);
    expect(result.stderr).toContain('operationPath steps are not supported in v1; use operationId (runs with --tool-runner v2)');
    expect(h.server.hits).toHaveLength(0);
  });
});

describe('official example LoginAndRetrievePets.arazzo.yaml under v2', () => {
  const REMOTE = 'https://raw.githubusercontent.com/swagger-api/swagger-petstore/master/src/main/resources/openapi.yaml';
  const prepare = (edits: Array<[string, string]> = []) => {
    h.server.setRoutes({ 'GET /user/login': { body: 'session-123' }, 'GET /pet/findByStatus': { body: [{ id: 1 }] } });
    writeStandIn(h.ws, 'petstore-login.openapi.yaml', h.server.url);
    copyOfficial(h.ws, 'LoginAndRetrievePets.arazzo.yaml', [[REMOTE, './petstore-login.openapi.yaml'], ...edits]);
  };
  const inputs = ['--input', 'username=ann', '--input', 'password=pw', '--tool-runner', 'v2'];

  it('refuses its operationPath, which names a path item and no method, and gives the pointer with the method (exit 10)', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'validate', 'LoginAndRetrievePets.arazzo.yaml', '--tool-runner', 'v2']);
    expect(result.code).toBe(10);
    expect(result.stdout).toContain(
      'error OPERATION_PATH_SYNTAX step "getPetStep": the pointer "/paths/~1pet~1findByStatus" names a path item, not an operation; add the method: /paths/~1pet~1findByStatus/get',
    );
    expectNoRun(await h.tool(['arazzo', 'run', 'LoginAndRetrievePets.arazzo.yaml', ...inputs]), 10);
    expect(h.server.hits).toHaveLength(0);
  });

  it('runs both steps once the method is added to the pointer', async () => {
    prepare([["#/paths/~1pet~1findByStatus'", "#/paths/~1pet~1findByStatus/get'"]]);
    const result = await h.tool(['arazzo', 'run', 'LoginAndRetrievePets.arazzo.yaml', ...inputs]);
    expect(result.code).toBe(0);
    expect(recordOf(result).outputs).toEqual({ available: [{ id: 1 }] });
    expect(h.server.hits.map((hit) => [hit.path, hit.query, hit.headers.authorization])).toEqual([
      ['/user/login', { username: 'ann', password: 'pw' }, undefined],
      ['/pet/findByStatus', { status: 'available' }, 'session-123'],
    ]);
  });
});
