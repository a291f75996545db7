/**
 * The baseline of bench/suite.js's throughput row: `chains` chains of `steps` GETs of the bench
 * API's /items/:id (each step asks for the id the previous answer named, as a workflow's steps
 * do), `concurrency` chains in flight at once, with got and the agent settings of
 * src/http/create-pipeline.ts (as bench/raw-got.js). Prints one JSON line: {"requests", "totalMs"},
 * the clock started after got is imported.
 *
 *   node bench/raw-got-concurrent.js <chains> <steps> <concurrency> <baseUrl>
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import got from 'got';

const [chains, steps, concurrency] = process.argv.slice(2, 5).map(Number);
const baseUrl = process.argv[5];
const client = got.extend({
  agent: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
  throwHttpErrors: false,
  retry: { limit: 0 },
  timeout: { request: 30_000 },
  headers: { 'user-agent': 'tool' },
});

let requests = 0;
function getJson(path) {
  return new Promise((resolve, reject) => {
    const stream = client.stream(`${baseUrl}${path}`);
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      requests += 1;
      if (stream.response.statusCode !== 200) reject(new Error(`HTTP ${stream.response.statusCode}`));
      else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

const started = performance.now();
let next = 0;
async function worker() {
  while (next < chains) {
    next += 1;
    let id = 'k0';
    for (let i = 0; i < steps; i++) id = (await getJson(`/items/${id}?n=${i}`)).next;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
process.stdout.write(`${JSON.stringify({ requests, totalMs: performance.now() - started })}\n`);
process.exit(0);
