/**
 * The benchmark's API, run as its own process so that neither the CLI nor the raw-got baseline
 * shares an event loop with it. Prints `listening <url>` on stdout once bound to 127.0.0.1:0 and
 * serves until stdin closes (the parent exiting, for any reason, therefore stops it too).
 *
 *   GET /items/:id?n=<i>          200 {"id", "n", "next"}; `next` is the id the following step asks for
 *   GET /loops/:run/tick?total=T  counts calls per run; 200 {"count", "remaining"}
 *   GET /flaky/:run/:i            503 on the first call per (run, i), 200 {"i"} after
 *   GET /timed/:run               answers after a random 10-30 ms, logging the time it held the request per run
 *   GET /timed-log/:run           200 [ms, …]: the times /timed/:run held its requests (bench/suite.js's server-side log)
 */
import { createServer } from 'node:http';

const loops = new Map();
const timed = new Map();
const flakySeen = new Set();

/** Writes a small JSON response with an explicit length (keep-alive friendly). */
function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function route(req, res) {
  const url = new URL(req.url ?? '/', 'http://bench');
  const parts = url.pathname.split('/').filter(Boolean);
  if (req.method !== 'GET') return send(res, 405, { error: 'only GET' });
  if (parts[0] === 'items' && parts.length === 2) {
    const id = parts[1];
    const number = Number(id.replace(/^k/, ''));
    return send(res, 200, { id, n: Number(url.searchParams.get('n')), next: `k${number + 1}` });
  }
  if (parts[0] === 'loops' && parts[2] === 'tick' && parts.length === 3) {
    const total = Number(url.searchParams.get('total'));
    const count = (loops.get(parts[1]) ?? 0) + 1;
    loops.set(parts[1], count);
    return send(res, 200, { count, remaining: Math.max(total - count, 0) });
  }
  if (parts[0] === 'flaky' && parts.length === 3) {
    const key = `${parts[1]}/${parts[2]}`;
    if (!flakySeen.has(key)) {
      flakySeen.add(key);
      return send(res, 503, { error: 'busy, try again' });
    }
    return send(res, 200, { i: Number(parts[2]) });
  }
  if (parts[0] === 'timed' && parts.length === 2) {
    const arrived = performance.now();
    setTimeout(() => {
      send(res, 200, { ok: true });
      const log = timed.get(parts[1]) ?? [];
      log.push(performance.now() - arrived);
      timed.set(parts[1], log);
    }, 10 + Math.random() * 20);
    return undefined;
  }
  if (parts[0] === 'timed-log' && parts.length === 2) return send(res, 200, timed.get(parts[1]) ?? []);
  return send(res, 404, { error: `no route ${url.pathname}` });
}

const server = createServer((req, res) => {
  // Requests are bodiless GETs; drain anyway so a stray body cannot stall the socket.
  req.resume();
  req.on('end', () => route(req, res));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
});
