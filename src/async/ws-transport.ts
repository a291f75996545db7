/**
 * Plain WebSocket through the `ws` package, loaded only when a step opens a WebSocket. A channel
 * address is a path on the server: one connection per address, at server URL + `/` + address
 * (`ws://host/base` and `place-order` give `ws://host/base/place-order`), since a plain WebSocket
 * has no topics of its own. Framing (ws-frame.ts): a text frame is the payload; headers travel
 * only in a `{"headers", "payload"}` envelope.
 */

import type WebSocket from 'ws';
import { untilAborted } from '../http/abortable.js';
import { AsyncAbortedError, ConnectionLostError, PublishError } from './async-errors.js';
import { BufferedSubscription } from './buffered-subscription.js';
import { encodeFrame, decodeFrame } from './ws-frame.js';
import { wsConnectError } from './ws-connect-error.js';
import type { PublishOptions, Subscription, Transport, TransportLimits } from './transport.js';

/** How to reach a WebSocket server. */
export interface WsConnectOptions {
  /** `host:port` for messages, without credentials. */
  address: string;
  /** Sent as HTTP Basic authorization on the upgrade request. */
  username?: string;
  password?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  limits: TransportLimits;
}

type WebSocketClass = typeof WebSocket;

/** A transport for the server at `url` (ws: or wss:); connections open per address, on first use. */
export async function connectWs(url: string, options: WsConnectOptions): Promise<Transport> {
  const { default: WebSocketClass } = await import('ws');
  return new WsTransport(WebSocketClass, url, options);
}

class WsTransport implements Transport {
  /** One open socket per channel address, shared by its subscriptions and publishes. */
  private readonly sockets = new Map<string, Promise<WebSocket>>();
  private readonly subscriptions = new Set<BufferedSubscription>();
  /** Every socket made, open or still opening: close() ends those still opening at once (a server that never answers the upgrade would hold it until the handshake timeout). */
  private readonly made = new Set<WebSocket>();
  private closed = false;

  constructor(
    private readonly WebSocketClass: WebSocketClass,
    private readonly baseUrl: string,
    private readonly options: WsConnectOptions,
  ) {}

  async subscribe(address: string): Promise<Subscription> {
    const subscription: BufferedSubscription = new BufferedSubscription(address, this.options.limits, () => this.subscriptions.delete(subscription));
    // Before the socket opens: a server that greets on connect is heard.
    this.subscriptions.add(subscription);
    try {
      await this.socket(address, this.options.signal);
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw error;
    }
    return subscription;
  }

  async publish(address: string, payload: unknown, options: PublishOptions = {}): Promise<void> {
    const socket = await this.socket(address, options.signal);
    const frame = encodeFrame(payload, options.headers ?? {}, options.contentType);
    const sent = new Promise<void>((resolve, reject) => {
      socket.send(frame, (error) => (error ? reject(new PublishError(address, error.message)) : resolve()));
    });
    await untilAborted(sent, options.signal, () => new AsyncAbortedError(`sending on channel "${address}"`));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const subscription of this.subscriptions) subscription.end(new ConnectionLostError(this.options.address, 'the transport was closed'));
    this.subscriptions.clear();
    for (const socket of this.made) if (socket.readyState === socket.CONNECTING) socket.terminate();
    this.made.clear();
    const sockets = await Promise.allSettled(this.sockets.values());
    this.sockets.clear();
    await Promise.all(sockets.map((result) => (result.status === 'fulfilled' ? closeSocket(result.value) : undefined)));
  }

  /** The open socket of an address, opened on first use; a failed or closed one is opened again next time. */
  private socket(address: string, signal: AbortSignal | undefined): Promise<WebSocket> {
    if (this.closed) return Promise.reject(new ConnectionLostError(this.options.address, 'the transport was closed'));
    let socket = this.sockets.get(address);
    if (socket === undefined) {
      socket = this.open(address);
      this.sockets.set(address, socket);
      socket.catch(() => this.sockets.delete(address));
    }
    return untilAborted(socket, signal, () => new AsyncAbortedError(`connecting to ${this.options.address}`));
  }

  private open(address: string): Promise<WebSocket> {
    const { username, password, timeoutMs, limits } = this.options;
    // A user name (tool auth login --type basic) is HTTP Basic; a password alone is a token (bearer, OAuth).
    const headers: Record<string, string> =
      username !== undefined ? { authorization: `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}` } : password !== undefined ? { authorization: `Bearer ${password}` } : {};
    const socket = new this.WebSocketClass(channelUrl(this.baseUrl, address), { handshakeTimeout: timeoutMs, maxPayload: limits.maxMessageBytes, headers });
    this.made.add(socket);
    socket.once('close', () => this.made.delete(socket));
    socket.on('message', (data) => this.receive(address, data));
    const opened = new Promise<WebSocket>((resolve, reject) => {
      let failure: unknown;
      socket.on('unexpected-response', (_request, response) => {
        failure = { status: response.statusCode };
        socket.terminate();
      });
      // Over maxPayload, ws reports this error and closes (1006 here, 1009 sent to the server).
      let tooLarge = false;
      socket.on('error', (error: Error & { code?: string }) => {
        failure ??= error;
        if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') tooLarge = true;
      });
      socket.once('open', () => resolve(socket));
      socket.on('close', (code) => {
        if (this.sockets.get(address) === opened) this.sockets.delete(address);
        // After `open` this rejects nothing: the promise is settled.
        reject(wsConnectError(failure ?? 'closed', this.options));
        const reason = tooLarge || code === 1009 ? `a message was over ${limits.maxMessageBytes} bytes (WebSocket close 1009)` : `the server closed the connection (WebSocket close ${code})`;
        for (const subscription of this.subscriptions) if (subscription.address === address) subscription.end(new ConnectionLostError(this.options.address, reason));
      });
    });
    return opened;
  }

  /** Binary frames are read as UTF-8 text too. */
  private receive(address: string, data: WebSocket.RawData): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const message = decodeFrame(address, bytes.toString('utf8'));
    for (const subscription of this.subscriptions) if (subscription.address === address) subscription.deliver(message, bytes.length);
  }
}

/** The URL of a channel: the server URL with the address appended as a path. */
export function channelUrl(serverUrl: string, address: string): string {
  const url = new URL(serverUrl);
  url.username = '';
  url.password = '';
  const base = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  url.pathname = base + address.replace(/^\/+/, '');
  return url.href;
}

/** Closes a socket and waits until it is gone, at most a second (a server that never answers the close is cut). */
function closeSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === socket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.terminate(), 1000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.close(1000);
  });
}
