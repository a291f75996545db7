/**
 * WebSocket framing. A plain WebSocket has no headers, so the most interoperable choice wins: a
 * frame's text is the message payload (parsed JSON when it parses), headers empty. Headers are
 * carried only in an envelope: a frame that is a JSON object with exactly the keys `headers`
 * (an object of strings) and `payload` is read as one, and publish sends one when, and only
 * when, there are headers to send.
 */

import { decodePayload, encodePayload, type Message } from './message.js';

/** The frame text for a payload and its headers: the payload alone, or an envelope when there are headers. */
export function encodeFrame(payload: unknown, headers: Record<string, string>, contentType: string | undefined): string {
  if (Object.keys(headers).length === 0) return encodePayload(payload, contentType);
  return JSON.stringify({ headers, payload: typeof payload === 'string' ? decodePayload(payload) : payload });
}

/** The message a received frame's text carries. */
export function decodeFrame(channel: string, text: string): Message {
  const payload = decodePayload(text);
  const envelope = asEnvelope(payload);
  return {
    channel,
    payload: envelope === undefined ? payload : envelope.payload,
    headers: envelope === undefined ? {} : envelope.headers,
    receivedAt: Date.now(),
  };
}

function asEnvelope(value: unknown): { headers: Record<string, string>; payload: unknown } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !keys.includes('headers') || !keys.includes('payload')) return undefined;
  const { headers, payload } = value as { headers: unknown; payload: unknown };
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return undefined;
  if (!Object.values(headers).every((header) => typeof header === 'string')) return undefined;
  return { headers: headers as Record<string, string>, payload };
}
