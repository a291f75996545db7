/**
 * A real WebSocket server on a free 127.0.0.1 port for the transport tests. It records every
 * frame a client sends (with the path it connected on) and can send frames to the clients of a
 * path, or echo frames back to their own path.
 */

import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

export interface ReceivedFrame {
  path: string;
  text: string;
  /** The upgrade request's Authorization header, for the credential test. */
  authorization?: string;
}

export interface WsTestServer {
  url: string;
  port: number;
  received: ReceivedFrame[];
  /** Sends a text frame to every client connected on `path` (`/place-order`). */
  send(path: string, text: string): void;
  /** Waits until a client is connected on `path`. */
  connected(path: string): Promise<void>;
  stop(): Promise<void>;
}

export interface WsServerOptions {
  /** Echo each frame back to the clients of the same path. */
  echo?: boolean;
  /** Answer the upgrade with HTTP 401 unless this Authorization header is sent. */
  requireAuthorization?: string;
}

/** Starts the server and resolves once it listens. */
export async function startWsServer(options: WsServerOptions = {}): Promise<WsTestServer> {
  const clients = new Map<WebSocket, string>();
  const received: ReceivedFrame[] = [];
  const waiting: { path: string; resolve: () => void }[] = [];
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (info: { req: IncomingMessage }) => options.requireAuthorization === undefined || info.req.headers.authorization === options.requireAuthorization,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (socket, request) => {
    const path = request.url ?? '/';
    clients.set(socket, path);
    socket.on('close', () => clients.delete(socket));
    socket.on('message', (data) => {
      const text = data.toString();
      received.push({ path, text, ...(request.headers.authorization !== undefined && { authorization: request.headers.authorization }) });
      if (options.echo) for (const [other, otherPath] of clients) if (otherPath === path) other.send(text);
    });
    for (const waiter of waiting.filter((w) => w.path === path)) waiter.resolve();
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    received,
    send: (path, text) => {
      for (const [socket, socketPath] of clients) if (socketPath === path) socket.send(text);
    },
    connected: (path) => {
      if ([...clients.values()].includes(path)) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ path, resolve }));
    },
    stop: async () => {
      for (const socket of clients.keys()) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
