/**
 * The errors of asynchronous channels, each a ToolError with a documented code
 * (src/errors/error-codes.ts). Messages are one line, carry no stack of the client library and
 * never a password: the CLI prints them as they are.
 */

import { ToolError } from '../errors/tool-error.js';

/** The protocols connectTransport speaks, by URL scheme and AsyncAPI server `protocol`. */
export const SUPPORTED_PROTOCOLS = ['mqtt', 'mqtts', 'ws', 'wss'] as const;

/** One of SUPPORTED_PROTOCOLS. */
export type SupportedProtocol = (typeof SUPPORTED_PROTOCOLS)[number];

/** Thrown by readAsyncApi when the document is not AsyncAPI 3, or a local `$ref` does not resolve or loops. */
export class AsyncApiError extends ToolError {
  constructor(
    message: string,
    /** Where in the AsyncAPI document, as a JSON pointer. */
    readonly pointer: string,
  ) {
    super('ASYNCAPI_INVALID', `${message} (at ${pointer === '' ? '/' : pointer})`);
    this.name = 'AsyncApiError';
  }
}

/** Thrown by connectTransport for a URL or server protocol other than mqtt, mqtts, ws and wss. */
export class ProtocolUnsupportedError extends ToolError {
  constructor(readonly protocol: string) {
    super(
      'ASYNC_PROTOCOL_UNSUPPORTED',
      `protocol "${protocol}" is not supported for asynchronous steps`,
      `supported protocols: ${SUPPORTED_PROTOCOLS.join(', ')}`,
    );
    this.name = 'ProtocolUnsupportedError';
  }
}

/** Thrown when a broker or WebSocket server cannot be reached or refuses the connection. */
export class AsyncConnectError extends ToolError {
  constructor(
    /** `host:port` of the server, without credentials. */
    readonly address: string,
    reason: string,
    hint?: string,
  ) {
    super('ASYNC_CONNECT_FAILED', `cannot connect to ${address}: ${reason}`, hint);
    this.name = 'AsyncConnectError';
  }
}

/** Rejects a subscription's waits when its connection closed under it. */
export class ConnectionLostError extends ToolError {
  constructor(
    readonly address: string,
    reason: string,
  ) {
    super('ASYNC_CONNECTION_LOST', `connection to ${address} lost: ${reason}`);
    this.name = 'ConnectionLostError';
  }
}

/** Thrown by publish when a message could not be handed to the broker or server. */
export class PublishError extends ToolError {
  constructor(
    readonly channel: string,
    reason: string,
  ) {
    super('ASYNC_PUBLISH_FAILED', `cannot send on channel "${channel}": ${reason}`);
    this.name = 'PublishError';
  }
}

/** Rejects Subscription.next when no matching message arrived within the time given. */
export class AsyncTimeoutError extends ToolError {
  constructor(
    readonly channel: string,
    readonly timeoutMs: number,
  ) {
    super('ASYNC_TIMEOUT', `no matching message on channel "${channel}" within ${timeoutMs} ms`);
    this.name = 'AsyncTimeoutError';
  }
}

/** Rejects a wait for a message or a connection when its AbortSignal aborts. */
export class AsyncAbortedError extends ToolError {
  constructor(what: string) {
    super('ASYNC_ABORTED', `${what} was aborted`);
    this.name = 'AsyncAbortedError';
  }
}
