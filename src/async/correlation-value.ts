/**
 * Reading an AsyncAPI correlation ID location (`$message.header#/orderRequestId`,
 * `$message.payload#/order/id`) from a received message, so a receive step can pick the reply
 * that belongs to its request.
 */

import { parsePointer, resolvePointer } from '../expressions/json-pointer.js';
import type { Message } from './message.js';

const LOCATION = /^\$message\.(header|payload)(?:#(.*))?$/;

/**
 * The value at `location` in `message`, or undefined when the message has none there. Throws a
 * SyntaxError for a location that is not `$message.header#…` or `$message.payload#…` with a JSON
 * pointer (the document is wrong, not the message).
 */
export function correlationValue(message: Message, location: string): unknown {
  const match = LOCATION.exec(location);
  if (match === null) throw new SyntaxError(`correlation location "${location}" must be $message.header#/<name> or $message.payload#/<pointer>`);
  const tokens = parsePointer(match[2] ?? '');
  return resolvePointer(match[1] === 'header' ? message.headers : message.payload, tokens);
}

/** A match for Subscription.next: the message's value at `location` equals `expected` (compared as text when one side is not a string). */
export function correlatesWith(location: string, expected: unknown): (message: Message) => boolean {
  // Read an empty message once, so a bad location throws here and not on every message.
  correlationValue({ channel: '', payload: null, headers: {}, receivedAt: 0 }, location);
  return (message) => {
    const actual = correlationValue(message, location);
    if (actual === undefined) return false;
    if (actual === expected) return true;
    return typeof actual !== 'object' && typeof expected !== 'object' && String(actual) === String(expected);
  };
}
