import { describe, expect, it } from '@jest/globals';
import { correlatesWith, correlationValue } from '../../../src/async/correlation-value.js';
import type { Message } from '../../../src/async/message.js';

const message: Message = {
  channel: 'confirm-order',
  payload: { order: { id: 42, 'a/b': 'slash' }, items: ['x'] },
  headers: { orderRequestId: 'r-1' },
  receivedAt: 0,
};

describe('correlationValue', () => {
  it('reads a header and payload pointers', () => {
    expect(correlationValue(message, '$message.header#/orderRequestId')).toBe('r-1');
    expect(correlationValue(message, '$message.payload#/order/id')).toBe(42);
    expect(correlationValue(message, '$message.payload#/order/a~1b')).toBe('slash');
    expect(correlationValue(message, '$message.payload#/items/0')).toBe('x');
  });

  it('gives undefined for what the message lacks', () => {
    expect(correlationValue(message, '$message.header#/missing')).toBeUndefined();
    expect(correlationValue({ ...message, payload: 'text' }, '$message.payload#/order/id')).toBeUndefined();
  });

  it('throws for a location that is not $message.header or $message.payload', () => {
    expect(() => correlationValue(message, '$response.body#/id')).toThrow(SyntaxError);
    expect(() => correlatesWith('$message.body#/id', 'x')).toThrow(/must be \$message.header/);
  });
});

describe('correlatesWith', () => {
  it('matches equal values, comparing a number and its text as equal', () => {
    expect(correlatesWith('$message.payload#/order/id', 42)(message)).toBe(true);
    expect(correlatesWith('$message.payload#/order/id', '42')(message)).toBe(true);
    expect(correlatesWith('$message.header#/orderRequestId', 'r-2')(message)).toBe(false);
    expect(correlatesWith('$message.header#/missing', 'undefined')(message)).toBe(false);
  });
});
