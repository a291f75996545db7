/**
 * The baseline: the same sequence of requests a scenario's workflow makes, written by hand with
 * got and the agent settings of src/http/create-pipeline.ts (keep-alive http/https agents, no got
 * retry, no throw on HTTP errors, 30 s request timeout, user-agent `tool`), through got's stream
 * API as the pipeline uses it (got's promise API costs ~0.1 ms more per request here, which would
 * flatter the CLI). Runs as its own process; prints one JSON line: {"requests", "firstMs",
 * "totalMs"} where the clock starts after got is imported (the CLI's got import lands in its
 * fixed cost instead).
 *
 *   node bench/raw-got.js <linear|loop|retry|nested> <size> <baseUrl> <runId>
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import got from 'got';

const [kind, sizeText, baseUrl, runId] = process.argv.slice(2);
const size = Number(sizeText);
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
const client = got.extend({
  agent: agents,
  throwHttpErrors: false,
  retry: { limit: 0 },
  timeout: { request: 30_000 },
  followRedirect: true,
  maxRedirects: 10,
  headers: { 'user-agent': 'tool' },
});

let requests = 0;
let firstMs = 0;
const started = performance.now();

/** One GET with its JSON body read and parsed, as a workflow step needs it. */
function getJson(path) {
  return new Promise((resolve, reject) => {
    const stream = client.stream(`${baseUrl}${path}`);
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      requests += 1;
      if (requests === 1) firstMs = performance.now() - started;
      resolve({ status: stream.response.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    });
  });
}

function expectOk(response, what) {
  if (response.status !== 200) throw new Error(`${what}: HTTP ${response.status}`);
}

if (kind === 'linear' || kind === 'nested') {
  // nested: the same chain of requests, each call's steps numbered 0-9.
  let next = 'k0';
  for (let i = 0; i < size; i++) {
    const response = await getJson(`/items/${encodeURIComponent(next)}?n=${kind === 'nested' ? i % 10 : i}`);
    expectOk(response, `item ${i}`);
    next = response.body.next;
  }
} else if (kind === 'loop') {
  for (;;) {
    const response = await getJson(`/loops/${runId}/tick?total=${size}`);
    expectOk(response, 'tick');
    if (!(response.body.remaining > 0)) break;
  }
} else if (kind === 'retry') {
  for (let i = 0; i < size; i++) {
    let response = await getJson(`/flaky/${runId}/${i}`);
    for (let retries = 0; response.status === 503 && retries < 2; retries++) response = await getJson(`/flaky/${runId}/${i}`);
    expectOk(response, `flaky ${i}`);
  }
} else {
  throw new Error(`unknown scenario kind ${kind}`);
}

const totalMs = performance.now() - started;
agents.http.destroy();
agents.https.destroy();
process.stdout.write(`${JSON.stringify({ requests, firstMs, totalMs })}\n`);
