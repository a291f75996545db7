/**
 * Streamable HTTP on `/mcp`: every request must carry `Authorization: Bearer <token>` (compared in
 * constant time; 401 otherwise); each client session gets its own server and transport. On a
 * loopback address, a request whose Host or Origin names another host is refused (403): a web page
 * that rebinds its own name to 127.0.0.1 (DNS rebinding) gets nowhere, as MCP's transport spec asks.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isLoopback, type HttpAddress } from './http-address.js';
import type { McpLog } from './log.js';

/** The most sessions open at once: past it, a new client gets 503 until one ends or expires. */
const MAX_SESSIONS = 64;

/** A session with no request for this long ends (a client that never ends its sessions cannot fill the slots for good). */
export const SESSION_IDLE_MS = 30 * 60_000;

export interface HttpServing {
  url: string;
  close(): Promise<void>;
}

/** Listens on `address`; `serverFor` makes the MCP server of a new session. Rejects when the address cannot be listened on. */
export async function serveHttp(address: HttpAddress, token: string, serverFor: () => Server, log: McpLog, idleMs = SESSION_IDLE_MS): Promise<HttpServing> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server; active: number; lastUsed: number }>();
  // Sessions without a request in flight and idle past idleMs end; checked a few times per idle period.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [sessionId, session] of sessions) {
      if (session.active > 0 || now - session.lastUsed < idleMs) continue;
      sessions.delete(sessionId);
      log.info(`session ${sessionId} ended: idle for ${Math.round(idleMs / 1000)} s`);
      void session.server.close().catch(() => undefined);
    }
  }, Math.max(250, Math.min(60_000, idleMs / 4)));
  sweep.unref();
  const expected = Buffer.from(`Bearer ${token}`);
  const authorized = (req: IncomingMessage) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  const loopbackOnly = isLoopback(address.host);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return fail(res, 404, 'not found: the MCP endpoint is /mcp');
    if (loopbackOnly && !fromLoopback(req)) {
      log.warn(`refused a ${req.method ?? ''} request whose Host or Origin is not a loopback name (a web page rebinding its name?)`);
      return fail(res, 403, 'forbidden: the Host and Origin of a request to a loopback server must be loopback names');
    }
    if (!authorized(req)) {
      log.warn(`refused a ${req.method ?? ''} request without the bearer token`);
      return fail(res, 401, 'unauthorized: send Authorization: Bearer <the token the server printed>', { 'www-authenticate': 'Bearer' });
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session) return fail(res, 404, 'no such session (it ended, was idle too long, or the server restarted)');
      session.active++;
      session.lastUsed = Date.now();
      // A GET holds its event stream open: the session is in use until the response ends.
      res.once('close', () => {
        session.active--;
        session.lastUsed = Date.now();
      });
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return fail(res, 400, 'no session: start one with an initialize request');
    if (sessions.size >= MAX_SESSIONS) return fail(res, 503, `too many sessions (${MAX_SESSIONS}); end one first`);
    const server = serverFor();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server, active: 0, lastUsed: Date.now() });
        log.info(`session ${sessionId} started`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined && sessions.delete(transport.sessionId)) log.info(`session ${transport.sessionId} ended`);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // A first request that was not an initialize made no session: nothing keeps its server.
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log.error(`HTTP request failed: ${error.message}`);
      if (!res.headersSent) fail(res, 500, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(address.port, address.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const bound = http.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${host}:${bound.port}/mcp`,
    async close() {
      clearInterval(sweep);
      for (const { server } of sessions.values()) await server.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Whether the request's Host (and Origin, when it has one) name a loopback host: what a page of another site cannot send, whatever its name resolves to. */
function fromLoopback(req: IncomingMessage): boolean {
  const hostOf = (authority: string) => {
    try {
      return new URL(`http://${authority}`).hostname;
    } catch {
      return undefined;
    }
  };
  const host = req.headers.host === undefined ? undefined : hostOf(req.headers.host);
  if (host === undefined || !isLoopback(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let originHost: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    originHost = url.hostname;
  } catch {
    return false;
  }
  return isLoopback(originHost);
}
