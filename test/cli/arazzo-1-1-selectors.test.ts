/**
 * Arazzo 1.1 Selector Objects (docs/run.md#selector-objects-arazzo-11): `{context, selector, type}`
 * in outputs, parameter values, payloads and replacement values, jsonpath replacement targets and
 * jsonpointer criteria, run against a real server; a 1.0.1 document sends such a mapping as data.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const FIXTURE = 'arazzo-1-1-selectors.arazzo.yaml';
const ITEMS = { items: [{ id: 7, name: 'apple', price: 3 }, { id: 8, name: 'pear', price: 30 }, { id: 9, name: 'fig', price: 5 }] };
const XML = '<root><item sku="A1"><price>12</price></item><item sku="B2"><price>15</price></item></root>';
const ROUTES = {
  'GET /items': { body: ITEMS },
  'GET /a': { headers: { 'content-type': 'application/xml' }, body: XML },
  'POST /items': { status: 201, body: { ok: true } },
};

describe('arazzo run: Arazzo 1.1 selector objects', () => {
  it('evaluates selectors in outputs, parameters, payloads and replacements, and jsonpointer criteria', async () => {
    const result = await h.run(FIXTURE, [], ROUTES);
    expect(result.stderr).not.toMatch(/error|✗/);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record)).toEqual(['list:200', 'xml:200', 'lookup:200', 'create:201']);
    expect(record.outputs).toMatchObject({
      firstId: 7,
      names: ['apple', 'pear', 'fig'],
      cheap: ['apple', 'fig'],
      second: { id: 8, name: 'pear', price: 30 },
      missing: null,
      noMessage: null,
      price: '12',
      prices: ['12', '15'],
      count: 2,
      sku: 'B2',
      fromBody: 'fig',
    });
    // $self: the document's relative $self resolved against where the document was read.
    expect(String(record.outputs.self)).toMatch(/^file:\/\/\/.*\/flows\/selectors\.arazzo\.yaml$/);

    const lookup = h.server.hits.filter((hit) => hit.method === 'GET' && hit.path === '/items')[1]!;
    expect(lookup.query).toEqual({ q: 'pear' });
    expect(lookup.headers['x-trace']).toBe('8');
    const create = h.server.hits.find((hit) => hit.method === 'POST')!;
    const sent = JSON.parse(create.body) as Record<string, unknown>;
    expect(sent).toEqual({
      id: 7,
      names: ['apple', 'pear', 'fig'],
      flags: [{ on: 7 }, { on: 7 }],
      origin: expect.stringMatching(/^from file:\/\/\/.*\/flows\/selectors\.arazzo\.yaml$/),
      // Not exactly the three keys of a selector object: data, sent as written.
      literal: { context: 'not-an-expression-here', selector: '$.x', type: 'jsonpath', note: 'extra key' },
      price: '15',
    });
  });

  it('fails a step before sending when a selector in its body selects nothing, naming the selector; an optional parameter is left out', async () => {
    const result = await h.run(FIXTURE, [], { ...ROUTES, 'GET /items': { body: { items: [{ name: 'apple', price: 3 }, { id: 8, price: 30 }, { id: 9 }] } } });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['list:200', 'xml:200', 'lookup:200', 'create:0']);
    expect(result.stderr).toContain('request body at /id: jsonpath selector "$.items[0].id" on $steps.list.outputs.body (it selects no node) resolved to nothing');
    expect(result.stderr).toContain('parameter "q" (query): jsonpointer selector "/items/1/name" on $steps.list.outputs.body (the pointer names no value in its context) resolved to nothing; the operation does not require it, so it is not sent');
    expect(h.server.hits.some((hit) => hit.method === 'POST')).toBe(false);
    expect(h.server.hits[2]!.query).toEqual({});
  });

  it('fails the step before sending when a jsonpath replacement target selects nothing', async () => {
    const file = h.ws.fixture(FIXTURE, { BASE_URL: h.server.url });
    h.ws.write('no-target.arazzo.yaml', readFileSync(file, 'utf8').replace('target: $.flags[*].on', 'target: $.missing[*].on'));
    h.server.setRoutes(ROUTES);
    const result = await h.tool(['arazzo', 'run', 'no-target.arazzo.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('replacement target "$.missing[*].on" (jsonpath) selects nothing in the payload');
    expect(h.server.hits.some((hit) => hit.method === 'POST')).toBe(false);
  });

  it('a jsonpointer criterion that names nothing does not hold', async () => {
    const result = await h.run(FIXTURE, ['--input', 'need:=5'], ROUTES);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['list:200']);
    expect(result.stderr).toContain('success criterion `/items/{$inputs.need}/id` does not hold');
  });

  it('sends a {context, selector, type} mapping in a 1.0.1 document as data', async () => {
    const result = await h.run('arazzo-1-0-selector-literal.arazzo.yaml', ['--tool-runner', 'v2', '--input', 'doc:={"a":1}'], { 'POST /items': { status: 201 } });
    expect(result.code).toBe(0);
    // Its strings are what they are in 1.0: the context an expression (the input), the JSONPath text.
    const sent = JSON.parse(h.server.hits[0]!.body) as unknown;
    expect(sent).toEqual({ id: { context: { a: 1 }, selector: '$.a', type: 'jsonpath' } });
  });
});
