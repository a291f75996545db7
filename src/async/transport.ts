/**
 * The one interface every asynchronous transport (MQTT, WebSocket) offers the engine: subscribe
 * to a channel address, publish on one, close. Limits that keep a hostile server from exhausting
 * memory are here too, shared by the transports.
 */

import type { Message } from './message.js';

/** Options of one publish. */
export interface PublishOptions {
  /** Sent as the MQTT 5 content type; decides how a string payload is encoded (JSON types: as a JSON string). */
  contentType?: string;
  /** MQTT 5 user properties, or the headers of a WebSocket envelope. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Options of one wait for a message. */
export interface NextOptions {
  /** Rejects with AsyncTimeoutError after this long; no limit when absent. */
  timeoutMs?: number;
  /** Rejects with AsyncAbortedError when it aborts. */
  signal?: AbortSignal;
}

/** Messages arriving on one channel address, buffered from the moment of subscribing. */
export interface Subscription {
  /** The channel address subscribed to. */
  readonly address: string;
  /** Messages dropped because the buffer was full (oldest first) or they were over the size limit. */
  readonly dropped: number;
  /**
   * The first buffered or arriving message that `match` accepts, taken out of the buffer; the
   * others stay for later calls. Rejects with AsyncTimeoutError, AsyncAbortedError, or
   * ConnectionLostError when the connection closes first.
   */
  next(match: (message: Message) => boolean, options?: NextOptions): Promise<Message>;
  /** Stops receiving; waits still pending reject with ConnectionLostError. */
  close(): void;
}

/** A connection to one broker or server. */
export interface Transport {
  /** Resolves once the subscription is in place: after the MQTT SUBACK, or once the WebSocket is open. */
  subscribe(address: string): Promise<Subscription>;
  /**
   * Resolves once the message is handed over: for MQTT, the broker's PUBACK (QoS 1); for
   * WebSocket, written to the socket. Rejects with PublishError or AsyncAbortedError.
   */
  publish(address: string, payload: unknown, options?: PublishOptions): Promise<void>;
  /** Closes every socket and subscription of the transport. */
  close(): Promise<void>;
}

/** How much one subscription and one message may hold. */
export interface TransportLimits {
  /** Messages kept per subscription; beyond it the oldest is dropped. */
  maxBuffered: number;
  /** Bytes of buffered payloads per subscription; beyond it the oldest are dropped. */
  maxBufferedBytes: number;
  /** Bytes of one message; a larger one is dropped (MQTT) or closes the connection (WebSocket, code 1009). */
  maxMessageBytes: number;
}

export const DEFAULT_LIMITS: TransportLimits = {
  maxBuffered: 1000,
  maxBufferedBytes: 16 * 1024 * 1024,
  maxMessageBytes: 4 * 1024 * 1024,
};
