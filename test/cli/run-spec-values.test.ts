/**
 * Issue 12: expressions the spec lists that used to resolve to nothing, the condition language as
 * Arazzo defines it, and how parameters apply to a step. In-process, against a scripted server.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();

beforeAll(() => {
  h.ws.fixture('v1-shop.openapi.yaml', { BASE_URL: h.server.url });
});

const LIST = { body: { status: 'Available', count: 3, data: [{ id: 12 }, { id: 3 }] } };

describe('arazzo run: values the spec lists', () => {
  it('resolves $sourceDescriptions, $components.parameters, $outputs, ids with spaces, [] and ., and quotes "{$expr}"', async () => {
    const result = await h.run('v1-values.arazzo.yaml', [], { 'GET /items': LIST, 'POST /orders': { status: 201, body: {} } });
    expect(result.stderr).not.toContain('error:');
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record.outputs).toEqual({
      url: join(h.ws.dir, 'v1-shop.openapi.yaml'),
      type: 'openapi',
      operation: 'getItem',
      limitParameter: { name: 'limit', in: 'query', value: 2 },
      first: 3,
      again: 3,
    });
    const steps = record.steps as Array<{ stepId: string; outputs: unknown }>;
    expect(steps.find((step) => step.stepId === 'order')?.outputs).toEqual({
      url: join(h.ws.dir, 'v1-shop.openapi.yaml'),
      type: 'openapi',
      operation: 'getItem',
      limitParameter: { name: 'limit', in: 'query', value: 2 },
    });
    const order = h.server.hits.find((hit) => hit.path === '/orders');
    expect(JSON.parse(order?.body ?? '{}')).toEqual({ quoted: '3', bare: 3 });
  });

  it('validates the document without CONDITION_SYNTAX and warns about the unusual step id', async () => {
    h.ws.fixture('v1-values.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await h.tool(['arazzo', 'validate', 'v1-values.arazzo.yaml']);
    expect(result.stderr + result.stdout).not.toContain('CONDITION_SYNTAX');
    expect(result.stderr + result.stdout).not.toContain('EXPRESSION_SYNTAX');
    expect(result.stderr + result.stdout).toContain('UNUSUAL_ID');
    expect(result.stderr + result.stdout).toContain('Search Stations');
    expect(result.code).toBe(0);
  });
});

describe('arazzo run: parameters', () => {
  it('does not evaluate a workflow parameter for a step whose operation lacks it, and leaves out an optional one that resolves to nothing', async () => {
    const result = await h.run('v1-parameters.arazzo.yaml', ['--input', 'limit=5', '--input', 'sku=a1'], {
      'GET /ping': {},
      'GET /items': {},
      'GET /items/{sku}': {},
    });
    expect(result.stderr).not.toContain('error:');
    expect(result.code).toBe(0);
    const [ping, list] = h.server.hits;
    expect(ping?.query).toEqual({});
    // Headers and cookies apply to every step; one that resolves to nothing is left out.
    expect(ping?.headers['x-trace']).toBe('trace-1');
    expect(ping?.headers['x-session']).toBeUndefined();
    expect(list?.query).toEqual({ limit: '5' });
    expect(list?.headers['x-trace']).toBe('trace-1');
    expect(result.stderr).toMatch(/warning: step "list": parameter "q" \(query\).*\$inputs\.q resolved to nothing.*not sent/);
    expect(result.stderr).toMatch(/warning: step "ping": parameter "X-Session" \(header\).*not sent/);
    expect(result.stderr).not.toMatch(/step "ping": parameter "q"/);
  });

  it('still fails a step before sending when a required parameter resolves to nothing', async () => {
    const result = await h.run('v1-parameters.arazzo.yaml', ['--input', 'sku=a1'], { 'GET /ping': {}, 'GET /items': {}, 'GET /items/{sku}': {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('$inputs.limit resolved to nothing');
    expect(h.server.count('GET /items')).toBe(0);
  });

  it('fails before sending when a required path parameter is empty (--input sku=)', async () => {
    const result = await h.run('v1-parameters.arazzo.yaml', ['--input', 'limit=5', '--input', 'sku='], {
      'GET /ping': {},
      'GET /items': {},
      'GET /items/{sku}': {},
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('path parameter "sku" is empty');
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/ping', '/items']);
  });
});

describe('arazzo run: a 401 without credentials', () => {
  it('does not tell a step that sent its own Authorization header that no credentials were sent', async () => {
    const result = await h.run('v1-auth.arazzo.yaml', ['--workflow', 'ownHeader'], { 'GET /ping': { status: 401 } });
    expect(result.code).toBe(1);
    expect(h.server.hits[0]?.headers.authorization).toBe('Bearer mine');
    expect(result.stderr).not.toContain('no credentials were sent');
    expect(result.stderr).toContain('tool auth login shop');
  });

  // Last: it registers "shop" in the workspace's configuration.
  it('gives a bound API without credentials the same hint as a direct call', async () => {
    expect((await h.tool(['api', 'add', 'shop', h.server.url])).code).toBe(0);
    const result = await h.run('v1-auth.arazzo.yaml', ['--workflow', 'plain'], { 'GET /ping': { status: 401 } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('API "shop" has no credentials: tool auth login shop');
  });
});
