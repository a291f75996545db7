/** A message received on a channel, and how its bytes become a payload. */

/** A message as a step sees it, whatever the transport. */
export interface Message {
  /** The channel address (MQTT topic, WebSocket path) it arrived on. */
  channel: string;
  /** Parsed JSON when the content type is JSON or the text parses as JSON; else the text. */
  payload: unknown;
  /** MQTT 5 user properties, or a WebSocket envelope's headers; empty when there are none. */
  headers: Record<string, string>;
  /** Milliseconds since the epoch, when the transport handed it over. */
  receivedAt: number;
  /** The MQTT 5 content type, when the sender gave one. */
  contentType?: string;
}

/** True for `application/json`, `application/vnd.x+json` and their parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * The payload of received text: parsed JSON when it parses (whatever the content type says, since
 * many senders give none), else the text as it is. Text declared JSON that does not parse is kept
 * as text too: the step's criteria decide what that means.
 */
export function decodePayload(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

/** The bytes to send for a payload: a string as it is (unless the content type is JSON), anything else as JSON. */
export function encodePayload(payload: unknown, contentType: string | undefined): string {
  if (typeof payload === 'string' && !isJsonContentType(contentType)) return payload;
  return JSON.stringify(payload) ?? 'null';
}
