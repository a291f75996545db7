/** The Arazzo 1.1 runtime-expression grammar: `$message`, `$self`, pointer suffixes, and 1.0 left as it was. */
import { describe, expect, it } from '@jest/globals';
import { ExpressionSyntaxError } from '../../../src/expressions/errors.js';
import { evaluateExpression } from '../../../src/expressions/evaluate-expression.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import { parseExpression } from '../../../src/expressions/parse-expression.js';
import { evaluateCondition } from '../../../src/expressions/evaluate-condition.js';
import type { ExpressionContext } from '../../../src/expressions/context.js';

const ctx: ExpressionContext = {
  inputs: { order: { lines: [{ sku: 'A' }] } },
  steps: { place: { outputs: { receipt: { id: 'r1' } } } },
  outputs: { total: { amount: 5 } },
  workflows: { other: { inputs: { user: { name: 'ann' } }, outputs: { token: { value: 't' } } } },
  message: { headers: { 'X-Correlation-Id': 'c-1' }, payload: { orderId: 42, status: 'ok' } },
  self: 'https://example.com/flows/a.arazzo.yaml',
};

describe('parseExpression in the 1.1 dialect', () => {
  it('reads $message.header.<token> and $message.payload[#pointer]', () => {
    expect(parseExpression('$message.header.X-Correlation-Id', '1.1')).toMatchObject({ kind: 'message', selector: { part: 'header', name: 'X-Correlation-Id' } });
    expect(parseExpression('$message.payload', '1.1')).toMatchObject({ kind: 'message', selector: { part: 'payload', pointer: [], dotted: false } });
    expect(parseExpression('$message.payload#/orderId', '1.1')).toMatchObject({ selector: { part: 'payload', pointer: ['orderId'], dotted: false } });
  });

  it("reads the text's own $message.payload.orderId as #/orderId, marked dotted", () => {
    expect(parseExpression('$message.payload.order.id', '1.1')).toMatchObject({ kind: 'message', selector: { part: 'payload', pointer: ['order', 'id'], dotted: true } });
  });

  it('reads $self, and nothing after it', () => {
    expect(parseExpression('$self', '1.1')).toEqual({ kind: 'self', source: '$self' });
    expect(() => parseExpression('$self.x', '1.1')).toThrow(ExpressionSyntaxError);
    expect(() => parseExpression('$message.body', '1.1')).toThrow('expected "header" or "payload" in a message reference');
  });

  it('keeps 1.0 as it was: $message and $self are not expressions, and the error lists the 1.0 roots', () => {
    expect(() => parseExpression('$message.payload')).toThrow('unknown expression "$message"');
    expect(() => parseExpression('$self')).toThrow(/unknown expression "\$self": expected .*\$components\.$/);
    expect(() => parseCondition('$message.payload#/a == 1')).toThrow();
  });

  it('reads #/pointer suffixes on $inputs, $outputs, $steps.<id>.outputs and $workflows.<id>.inputs|outputs', () => {
    const cases: Array<[string, unknown]> = [
      ['$inputs.order#/lines/0/sku', 'A'],
      ['$outputs.total#/amount', 5],
      ['$steps.place.outputs.receipt#/id', 'r1'],
      ['$workflows.other.inputs.user#/name', 'ann'],
      ['$workflows.other.outputs.token#/value', 't'],
    ];
    for (const [source, value] of cases) expect(evaluateExpression(parseExpression(source, '1.1'), ctx)).toEqual(value);
  });
});

describe('evaluateExpression: $message and $self', () => {
  it('reads the message: a header in any case, the payload by pointer', () => {
    expect(evaluateExpression(parseExpression('$message.header.x-correlation-id', '1.1'), ctx)).toBe('c-1');
    expect(evaluateExpression(parseExpression('$message.payload#/orderId', '1.1'), ctx)).toBe(42);
    expect(evaluateExpression(parseExpression('$message.payload.orderId', '1.1'), ctx)).toBe(42);
    expect(evaluateExpression(parseExpression('$message.payload', '1.1'), ctx)).toEqual({ orderId: 42, status: 'ok' });
  });

  it('resolves to nothing in a step without a message', () => {
    const noMessage = { ...ctx, message: undefined };
    expect(evaluateExpression(parseExpression('$message.payload#/orderId', '1.1'), noMessage)).toBeUndefined();
    expect(evaluateExpression(parseExpression('$message.header.X-Correlation-Id', '1.1'), noMessage)).toBeUndefined();
  });

  it('gives $self as the context has it', () => {
    expect(evaluateExpression(parseExpression('$self', '1.1'), ctx)).toBe('https://example.com/flows/a.arazzo.yaml');
  });

  it('lets a simple condition read the message', () => {
    expect(evaluateCondition(parseCondition("$message.payload#/status == 'ok' && $message.header.X-Correlation-Id == 'c-1'", '1.1'), ctx)).toBe(true);
    expect(evaluateCondition(parseCondition('$message.payload#/orderId == 42', '1.1'), { ...ctx, message: undefined })).toBe(false);
  });
});
