import { describe, expect, it } from '@jest/globals';
import { ExpressionSyntaxError } from '../../../src/expressions/errors.js';
import { parseExpression } from '../../../src/expressions/parse-expression.js';

function syntaxError(source: string): ExpressionSyntaxError {
  try {
    parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${source} not to parse`);
}

describe('parseExpression', () => {
  it.each([
    ['$url', { kind: 'url' }],
    ['$method', { kind: 'method' }],
    ['$statusCode', { kind: 'statusCode' }],
    ['$request.header.X-Request-Id', { kind: 'request', selector: { part: 'header', name: 'X-Request-Id' } }],
    ['$request.query.filter[status]', { kind: 'request', selector: { part: 'query', name: 'filter[status]' } }],
    ['$request.path.petId', { kind: 'request', selector: { part: 'path', name: 'petId' } }],
    ['$request.body', { kind: 'request', selector: { part: 'body', pointer: [] } }],
    ['$request.body#/name', { kind: 'request', selector: { part: 'body', pointer: ['name'] } }],
    ['$response.header.Content-Type', { kind: 'response', selector: { part: 'header', name: 'Content-Type' } }],
    ['$response.body#/items/0/id', { kind: 'response', selector: { part: 'body', pointer: ['items', '0', 'id'] } }],
    ['$response.statusCode', { kind: 'response', selector: { part: 'statusCode' } }],
    ['$inputs.username', { kind: 'inputs', name: 'username', pointer: [], alias: false }],
    ['$inputs.customer#/firstName', { kind: 'inputs', name: 'customer', pointer: ['firstName'], alias: false }],
    ['$inputs.dotted.name', { kind: 'inputs', name: 'dotted.name', pointer: [], alias: false }],
    ['$workflow.inputs.username', { kind: 'inputs', name: 'username', pointer: [], alias: true }],
    ['$outputs.orderId', { kind: 'outputs', name: 'orderId', pointer: [] }],
    ['$outputs.order#/id', { kind: 'outputs', name: 'order', pointer: ['id'] }],
    ['$steps.find-pet.outputs.my_pet_id', { kind: 'stepOutputs', stepId: 'find-pet', name: 'my_pet_id', pointer: [] }],
    ['$steps.login.outputs.profile#/name', { kind: 'stepOutputs', stepId: 'login', name: 'profile', pointer: ['name'] }],
    ['$steps.login.response.body#/session/id', { kind: 'stepResponse', stepId: 'login', selector: { part: 'body', pointer: ['session', 'id'] } }],
    ['$steps.login.response.header.Location', { kind: 'stepResponse', stepId: 'login', selector: { part: 'header', name: 'Location' } }],
    ['$steps.login.response.statusCode', { kind: 'stepResponse', stepId: 'login', selector: { part: 'statusCode' } }],
    ['$steps.login.request.header.Authorization', { kind: 'stepRequest', stepId: 'login', selector: { part: 'header', name: 'Authorization' } }],
    ['$steps.login.request.query.q', { kind: 'stepRequest', stepId: 'login', selector: { part: 'query', name: 'q' } }],
    ['$steps.login.request.path.id', { kind: 'stepRequest', stepId: 'login', selector: { part: 'path', name: 'id' } }],
    ['$steps.login.request.body#/user', { kind: 'stepRequest', stepId: 'login', selector: { part: 'body', pointer: ['user'] } }],
    ['$workflows.refresh.inputs.token', { kind: 'workflow', workflowId: 'refresh', field: 'inputs', name: 'token', pointer: [] }],
    ['$workflows.refresh.outputs.meta#/ttl', { kind: 'workflow', workflowId: 'refresh', field: 'outputs', name: 'meta', pointer: ['ttl'] }],
    ['$sourceDescriptions.auth-api.Token', { kind: 'sourceDescription', name: 'auth-api', field: 'Token' }],
    ['$components.parameters.page', { kind: 'component', section: 'parameters', name: 'page', pointer: [] }],
    ['$components.inputs.pagination#/size', { kind: 'component', section: 'inputs', name: 'pagination', pointer: ['size'] }],
    ['$components.failureActions.retry-later', { kind: 'component', section: 'failureActions', name: 'retry-later', pointer: [] }],
  ])('parses %s', (source, expected) => {
    expect(parseExpression(source)).toEqual({ ...expected, source });
  });

  it('accepts any RFC 9110 token character in a header name', () => {
    expect(parseExpression("$response.header.X!#$%&'*+-.^_`|~9")).toMatchObject({
      selector: { part: 'header', name: "X!#$%&'*+-.^_`|~9" },
    });
  });

  it('unescapes ~0 and ~1 in a pointer', () => {
    expect(parseExpression('$response.body#/a~1b/m~0n')).toMatchObject({ selector: { pointer: ['a/b', 'm~n'] } });
  });

  it('keeps an empty pointer after "#" as the whole body', () => {
    expect(parseExpression('$response.body#')).toMatchObject({ selector: { part: 'body', pointer: [] } });
  });

  it.each([
    ['', 0, 'starts with "$"'],
    ['inputs.x', 0, 'starts with "$"'],
    ['$', 1, 'must be followed by an expression name'],
    ['$.items[0]', 1, 'must be followed by an expression name'],
    ['$[?@.a]', 1, 'must be followed by an expression name'],
    ['$foo.bar', 1, 'unknown expression "$foo"'],
    ['$url.x', 4, 'unexpected "."'],
    ['$inputs', 7, 'expected "."'],
    ['$inputs.', 8, 'expected an input name'],
    ['$inputs.a b', 9, 'unexpected " "'],
    ['$steps.x', 8, 'expected "."'],
    ['$steps.x.foo.y', 9, 'expected "outputs", "response" or "request"'],
    ['$steps.x.response.cookies', 18, 'expected "header", "body" or "statusCode"'],
    ['$steps.a.b.outputs.c', 9, 'found "b"'],
    ['$response.query.x', 10, 'expected "header", "body" or "statusCode"'],
    ['$request.statusCode', 9, 'expected "header", "query", "path" or "body"'],
    ['$response.header.', 17, 'expected a header name'],
    ['$response.header.Bad Name', 20, 'unexpected " "'],
    ['$response.body#items', 15, 'must be empty or start with "/"'],
    ['$response.body#/a~2', 17, '"~" not followed by 0 or 1'],
    ['$response.body/a', 14, 'unexpected "/"'],
    ['$workflow.outputs.x', 10, 'expected "inputs"'],
    ['$workflows.w.steps.x', 13, 'expected "inputs" or "outputs"'],
    ['$components.schemas.x', 12, 'expected "parameters", "inputs", "successActions" or "failureActions"'],
    ['$sourceDescriptions.petstore', 28, 'expected "."'],
    ['$message.header#/orderRequestId', 1, 'unknown expression "$message"'],
  ])('rejects %j at offset %d', (source, offset, message) => {
    const error = syntaxError(source);
    expect(error.code).toBe('EXPRESSION_SYNTAX');
    expect(error.source).toBe(source);
    expect(error.offset).toBe(offset);
    expect(error.message).toContain(message);
  });
});
