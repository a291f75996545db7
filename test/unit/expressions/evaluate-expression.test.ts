import { describe, expect, it } from '@jest/globals';
import { evaluateExpression } from '../../../src/expressions/evaluate-expression.js';
import { parseExpression } from '../../../src/expressions/parse-expression.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { sampleContext } from './sample-context.js';

const evaluate = (source: string, ctx: ExpressionContext = sampleContext()): unknown =>
  evaluateExpression(parseExpression(source), ctx);

describe('evaluateExpression', () => {
  it.each<[string, unknown]>([
    ['$url', 'https://api.example.test/pets/7?verbose=true'],
    ['$method', 'GET'],
    ['$statusCode', 200],
    ['$request.header.X-Request-Id', 'req-1'],
    ['$request.query.verbose', 'true'],
    ['$request.query.filter[status]', 'sold'],
    ['$request.path.petId', '7'],
    ['$request.body', { name: 'Rex' }],
    ['$request.body#/name', 'Rex'],
    ['$response.header.Content-Type', 'application/json'],
    ['$response.body#/id', 7],
    ['$response.body#/a~1b', 'slash'],
    ['$response.body#/m~0n', 'tilde'],
    ['$response.body#/items/1/id', 'second'],
    ['$response.body#/empty', ''],
    ['$response.statusCode', 200],
    ['$inputs.username', 'ada'],
    ['$inputs.dotted.name', 'd'],
    ['$inputs.customer#/tags/0', 'a'],
    ['$workflow.inputs.username', 'ada'],
    ['$outputs.orderId', 'o-1'],
    ['$steps.login.outputs.token', 'tok'],
    ['$steps.login.outputs.profile#/name', 'Ada'],
    ['$steps.login.response.body#/session/id', 's-1'],
    ['$steps.login.response.header.location', '/sessions/1'],
    ['$steps.login.response.statusCode', 201],
    ['$steps.login.request.header.authorization', 'Basic x'],
    ['$steps.login.request.query.q', 'pets'],
    ['$steps.login.request.path.id', '1'],
    ['$steps.login.request.body#/user', 'ada'],
    ['$workflows.refresh.inputs.token', 'old'],
    ['$workflows.refresh.outputs.meta#/ttl', 60],
    ['$sourceDescriptions.petstore.url', 'https://petstore.test/openapi.yaml'],
    ['$components.parameters.page', { name: 'page', in: 'query', value: 1 }],
    ['$components.inputs.pagination#/size', 10],
  ])('resolves %s', (source, expected) => {
    expect(evaluate(source)).toEqual(expected);
  });

  it('keeps the type of the status code: the number 200, not "200"', () => {
    expect(evaluate('$statusCode')).toBe(200);
  });

  it('returns the whole body for an empty pointer', () => {
    const ctx = sampleContext();
    expect(evaluate('$response.body#', ctx)).toBe(ctx.response?.body);
  });

  it('looks up header names case-insensitively in requests and responses', () => {
    expect(evaluate('$response.header.CONTENT-TYPE')).toBe('application/json');
    expect(evaluate('$response.header.content-type')).toBe('application/json');
    expect(evaluate('$request.header.x-request-id')).toBe('req-1');
  });

  it('joins a repeated header into one field value', () => {
    expect(evaluate('$response.header.set-cookie')).toBe('a=1, b=2');
  });

  it('takes $url, $method and $statusCode from the current request and response when not set directly', () => {
    const ctx: ExpressionContext = {
      inputs: {},
      steps: {},
      request: { url: 'http://h/x', method: 'POST', headers: {}, query: {}, path: {} },
      response: { statusCode: 404, headers: {}, body: null },
    };
    expect([evaluate('$url', ctx), evaluate('$method', ctx), evaluate('$statusCode', ctx)]).toEqual(['http://h/x', 'POST', 404]);
  });

  it.each([
    '$inputs.missing',
    '$inputs.customer#/missing',
    '$response.body#/items/2',
    '$response.body#/items/-',
    '$response.header.X-Missing',
    '$steps.nope.outputs.token',
    '$steps.login.outputs.nope',
    '$workflows.nope.outputs.token',
    '$sourceDescriptions.nope.url',
    '$components.parameters.nope',
    '$request.query.nope',
  ])('returns undefined for %s, which names nothing', (source) => {
    expect(evaluate(source)).toBeUndefined();
  });

  it('returns undefined for every form when the context holds only the required fields', () => {
    const bare: ExpressionContext = { inputs: {}, steps: {} };
    for (const source of ['$url', '$method', '$statusCode', '$request.body', '$response.header.A', '$outputs.x', '$workflows.w.inputs.x', '$components.inputs.x', '$sourceDescriptions.s.url', '$steps.s.response.statusCode', '$steps.s.request.path.p']) {
      expect(evaluate(source, bare)).toBeUndefined();
    }
  });

  it('never reads inherited properties such as constructor or __proto__', () => {
    expect(evaluate('$inputs.constructor')).toBeUndefined();
    expect(evaluate('$inputs.__proto__')).toBeUndefined();
    expect(evaluate('$response.body#/toString')).toBeUndefined();
    expect(evaluate('$steps.login.outputs.hasOwnProperty')).toBeUndefined();
  });

  it('returns null and false values as they are, not as missing', () => {
    const ctx: ExpressionContext = { inputs: { n: null, f: false, z: 0 }, steps: {} };
    expect([evaluate('$inputs.n', ctx), evaluate('$inputs.f', ctx), evaluate('$inputs.z', ctx)]).toEqual([null, false, 0]);
  });
});
