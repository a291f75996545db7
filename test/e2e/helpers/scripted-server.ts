/**
 * A real node:http server on 127.0.0.1 (OS-assigned port) answering from a script: routes such as
 * `GET /items/{id}` map to a reply, a sequence of replies (the last one repeats) or a function.
 * Replies can be delayed or drop the connection. Every request is recorded, per route too.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  /** An object or array is sent as JSON; a string as text/plain (unless headers say otherwise). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Destroy the socket instead of answering (a connection reset). */
  reset?: boolean;
}

export interface Hit {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  /** The route key that answered, or undefined for a 404. */
  route: string | undefined;
  /** Milliseconds since the server started (or was last reset). */
  at: number;
}

export type Script = Reply | Reply[] | ((hit: Hit, n: number) => Reply);
export type Routes = Record<string, Script>;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  hits: Hit[];
  /** How many requests reached `route` (a key of the routes). */
  count(route: string): number;
  /** Replaces the routes and forgets every hit. */
  setRoutes(routes: Routes): void;
  close(): Promise<void>;
}

function matchRoute(routes: Routes, method: string, path: string): string | undefined {
  const segments = path.split('/');
  return Object.keys(routes).find((key) => {
    const [m, pattern = ''] = key.split(' ');
    if (m !== method) return false;
    const wanted = pattern.split('/');
    return wanted.length === segments.length && wanted.every((seg, i) => (seg.startsWith('{') && seg.endsWith('}')) || seg === segments[i]);
  });
}

function pick(script: Script, hit: Hit, n: number): Reply {
  if (typeof script === 'function') return script(hit, n);
  if (Array.isArray(script)) return script[Math.min(n, script.length) - 1] ?? {};
  return script;
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload = '';
  if (typeof reply.body === 'string') {
    payload = reply.body;
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'text/plain';
  } else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  res.writeHead(reply.status ?? 200, headers);
  res.end(payload);
}

/** Starts a scripted server; unknown routes get a JSON 404. */
export async function startScriptedServer(initial: Routes = {}): Promise<ScriptedServer> {
  let routes = initial;
  let hits: Hit[] = [];
  let counts = new Map<string, number>();
  let started = Date.now();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const route = matchRoute(routes, method, url.pathname);
      const hit: Hit = {
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        route,
        at: Date.now() - started,
      };
      hits.push(hit);
      if (route === undefined) return send(res, { status: 404, body: { error: `no route for ${method} ${url.pathname}` } });
      const n = (counts.get(route) ?? 0) + 1;
      counts.set(route, n);
      const reply = pick(routes[route]!, hit, n);
      const answer = () => (reply.reset ? req.socket.destroy() : send(res, reply));
      if (!reply.delayMs) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return hits;
    },
    count: (route) => counts.get(route) ?? 0,
    setRoutes(next) {
      routes = next;
      hits = [];
      counts = new Map();
      started = Date.now();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
