/**
 * `--tool-bind <source>=<api>` (v2): binds a source to a registered API before x-tool-api and
 * name match. An unknown source or API, or a flag that is not source=api, exits 2 before any
 * request; v1 refuses the flag, pointing at v2.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const ROUTES = { 'GET /prod/a': {}, 'GET /staging/a': {} };
const V2 = ['--tool-runner', 'v2'];

beforeAll(async () => {
  for (const [name, path] of [['production', '/prod'], ['staging', '/staging']] as const) {
    expect((await h.tool(['api', 'add', name, `${h.server.url}${path}`])).code).toBe(0);
  }
});

describe('--tool-bind under --tool-runner v2', () => {
  it('binds the source to the API it names, before its x-tool-api', async () => {
    const unbound = await h.run('v2-bind.arazzo.yaml', V2, ROUTES);
    expect(unbound.code).toBe(0);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/prod/a']);

    const result = await h.run('v2-bind.arazzo.yaml', [...V2, '--tool-bind', 'api=staging', '--verbose'], ROUTES);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['first:200']);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/staging/a']);
    expect(result.stderr).toContain(`api: bound to API "staging" (--tool-bind); base URL ${h.server.url}/staging`);
  });

  it('refuses a source the document does not have, listing its sources (exit 2, nothing sent)', async () => {
    const result = await h.run('v2-bind.arazzo.yaml', [...V2, '--tool-bind', 'apii=staging'], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--tool-bind apii=staging: ');
    expect(result.stderr).toContain('has no source named "apii" (did you mean "api"?)');
    expect(result.stderr).toContain('Its OpenAPI sources: api');
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses an API that is not registered, listing the registered ones (exit 2, nothing sent)', async () => {
    const result = await h.run('v2-bind.arazzo.yaml', [...V2, '--tool-bind', 'api=stagin'], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--tool-bind api=stagin: no API named "stagin" is configured (did you mean "staging"?)');
    expect(result.stderr).toContain('Configured APIs: production, staging. Add it: tool api add stagin <base-url>');
    expect(h.server.hits).toHaveLength(0);
  });

  it.each([['api'], ['=staging'], ['api=']])('refuses --tool-bind %s, which is not source=api (exit 2)', async (value) => {
    const result = await h.run('v2-bind.arazzo.yaml', [...V2, '--tool-bind', value], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain(`--tool-bind ${JSON.stringify(value)} is not <source>=<api>`);
    expect(h.server.hits).toHaveLength(0);
  });

  it('refuses one source bound to two APIs (exit 2)', async () => {
    const result = await h.run('v2-bind.arazzo.yaml', [...V2, '--tool-bind', 'api=staging', '--tool-bind', 'api=production'], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--tool-bind binds source "api" to both "staging" and "production"');
  });

  it('is refused by v1 with the v2 hint (exit 2, nothing sent)', async () => {
    const result = await h.run('v2-bind.arazzo.yaml', ['--tool-bind', 'api=staging'], ROUTES);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('--tool-bind is not supported by the v1 runner (runs with --tool-runner v2)');
    expect(result.stderr).toContain('x-tool-api');
    expect(h.server.hits).toHaveLength(0);
  });
});
