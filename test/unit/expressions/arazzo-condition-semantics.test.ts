/**
 * The condition language as Arazzo 1.0.1 defines it (Criterion Object): case-insensitive string
 * comparison, and the `[]` (index) and `.` (property de-reference) operators of its table. Also
 * the expression grammar's ids (`*CHAR`, "Search Stations") and `{$expr}` as interpolation.
 */
import { describe, expect, it } from '@jest/globals';
import { compileTemplate } from '../../../src/expressions/compile-template.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';
import { ConditionEvaluationError, ConditionSyntaxError } from '../../../src/expressions/errors.js';
import { evaluateCondition } from '../../../src/expressions/evaluate-condition.js';
import { evaluateExpression } from '../../../src/expressions/evaluate-expression.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import { parseExpression } from '../../../src/expressions/parse-expression.js';
import { renderTemplate } from '../../../src/expressions/render-template.js';
import { sampleContext } from './sample-context.js';

function context(): ExpressionContext {
  const ctx = sampleContext();
  ctx.response = { statusCode: 200, headers: {}, body: { status: 'Available', data: [{ id: 12, tags: ['x'] }, { id: 3 }] } };
  ctx.steps.a = { outputs: { list: [{ name: 'p' }, { name: 'q' }, { name: 'x' }], obj: { field: 'F' } } };
  ctx.steps['Search Stations'] = { outputs: { stationId: 's-9' } };
  return ctx;
}

const holds = (source: string): boolean => evaluateCondition(parseCondition(source), context());

describe('string comparisons are case insensitive', () => {
  it.each([
    ["'Available' == 'available'", true],
    ["'Available' != 'AVAILABLE'", false],
    ["$response.body#/status == 'available'", true],
    ["$response.body#/status == 'sold'", false],
    ["$inputs.username == 'ADA'", true],
  ])('%s is %s', (source, expected) => {
    expect(holds(source)).toBe(expected);
  });

  it('compares strings inside arrays and objects exactly (only two strings meeting fold case)', () => {
    expect(holds("$steps.a.outputs.obj == $steps.a.outputs.obj")).toBe(true);
    const ctx = context();
    ctx.inputs.left = { s: 'A' };
    ctx.inputs.right = { s: 'a' };
    expect(evaluateCondition(parseCondition('$inputs.left == $inputs.right'), ctx)).toBe(false);
  });

  it('orders numeric strings as numbers and refuses to order other strings', () => {
    expect(holds("'10' > '9'")).toBe(true);
    expect(() => holds("'b' > 'A'")).toThrow(ConditionEvaluationError);
  });
});

describe('the [] and . operators in a condition', () => {
  it.each([
    ['$response.body.data[0].id > 10', true],
    ['$response.body.data[1].id > 10', false],
    ['$response.body.data[0].tags[0] == \'X\'', true],
    ["$steps.a.outputs.list[2].name == 'x'", true],
    ["$steps.a.outputs.obj.field == 'f'", true],
    ['$response.body.data[5].id == null', true],
    ['$response.body#/data/0/id == 12 && $response.body.data.length == null', true],
  ])('%s is %s', (source, expected) => {
    expect(holds(source)).toBe(expected);
  });

  it('keeps the expression and its accessors apart in the parsed condition', () => {
    const parsed = parseCondition('$response.body.data[0].id > 10');
    expect(parsed.kind).toBe('compare');
    if (parsed.kind !== 'compare' || parsed.left.kind !== 'expression') throw new Error('unexpected shape');
    expect(parsed.left.expression.source).toBe('$response.body');
    expect(parsed.left.access).toEqual(['data', '0', 'id']);
    expect(parsed.left.source).toBe('$response.body.data[0].id');
  });

  it('points at a bracket that holds no index', () => {
    expect(() => parseCondition('$response.body.data[x] == 1')).toThrow(ConditionSyntaxError);
    try {
      parseCondition('$response.body.data[x] == 1');
    } catch (error) {
      expect((error as ConditionSyntaxError).offset).toBe(20);
    }
  });
});

describe('step and workflow ids beyond [A-Za-z0-9_-]', () => {
  it('parses and resolves a step id with a space, as the ABNF reads it', () => {
    const expr = parseExpression('$steps.Search Stations.outputs.stationId');
    expect(expr).toMatchObject({ kind: 'stepOutputs', stepId: 'Search Stations', name: 'stationId' });
    expect(evaluateExpression(expr, context())).toBe('s-9');
  });

  it('lets a condition brace an expression that holds a space', () => {
    expect(holds("{$steps.Search Stations.outputs.stationId} == 'S-9'")).toBe(true);
  });

  it('parses a workflow id with other characters', () => {
    expect(parseExpression('$workflows.buy tickets!.outputs.id')).toMatchObject({ kind: 'workflow', workflowId: 'buy tickets!' });
  });
});

describe('a payload string that is exactly {$expr}', () => {
  it('is interpolation, so a number becomes a string; a bare $expr keeps the number', () => {
    const ctx = context();
    ctx.inputs.n = 7;
    expect(renderTemplate(compileTemplate({ a: '{$inputs.n}', b: '$inputs.n' }), ctx)).toEqual({ a: '7', b: 7 });
  });
});

describe('dotted names de-reference properties when no such key exists', () => {
  it('reads $inputs.customer.firstName as the firstName of input customer, and a real dotted key first', () => {
    const ctx = context();
    expect(evaluateExpression(parseExpression('$inputs.customer.firstName'), ctx)).toBe('Ada');
    expect(evaluateExpression(parseExpression('$inputs.dotted.name'), ctx)).toBe('d');
  });
});
