/**
 * The rows of `npm run bench` for `tool arazzo test` (issue 26), against the bench API in its own
 * process, through the real CLI:
 *
 * - throughput: N runs of a 3-step workflow at --concurrency 32 (responses checked against their
 *   schema, as by default), against raw got sending the same
 *   3N requests as chains, 32 in flight (bench/raw-got-concurrent.js). Target: ≥ 0.7× raw got.
 * - memory: a 1-step workflow over 10× the rows of a smaller file (--data CSV, --concurrency 32):
 *   peak RSS of the larger ≤ 1.2× the smaller's, and ≤ 250 MiB.
 * - latency: p50 of a step the server holds 10-30 ms, from the suite's figures, against the
 *   server's own log of how long it held each request. Target: within 5%.
 *
 *   node bench/suite.js [--quick] [--tool <dir>] [--only throughput,memory,latency] [--out <file>]
 *
 * --quick makes each row ten times smaller (1 000 runs, 1 000 and 10 000 rows). Writes
 * bench/suite-results.json. A report, not a test: exits 0 unless the harness breaks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeNode } from './measure.js';
import { startApi } from './start-api.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RAW = join(ROOT, 'bench', 'raw-got-concurrent.js');
const CONCURRENCY = 32;

function parseArgs(argv) {
  const args = { latencyConcurrency: 1, quick: false, tool: join(ROOT, 'bin', 'tool.js'), only: ['throughput', 'memory', 'latency'], out: join(ROOT, 'bench', 'suite-results.json') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.quick = true;
    else if (arg === '--latency-concurrency') args.latencyConcurrency = Number(argv[++i]);
    else if (arg === '--tool') args.tool = join(resolve(argv[++i]), 'bin', 'tool.js');
    else if (arg === '--only') args.only = argv[++i].split(',');
    else if (arg === '--out') args.out = resolve(argv[++i]);
    else throw new Error(`unknown argument ${arg} (use --quick, --tool <dir>, --only throughput,memory,latency, --out <file>)`);
  }
  return args;
}

/** The bench API's description (the routes these rows use) and the three workflows. */
function writeDocuments(dir, baseUrl) {
  writeFileSync(
    join(dir, 'suite.openapi.yaml'),
    `openapi: 3.0.3
info: { title: Benchmark API, version: 1.0.0 }
servers: [ { url: '${baseUrl}' } ]
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: n, in: query, schema: { type: integer } }
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string }, n: { type: integer }, next: { type: string } }, required: [id, n, next] }
  /timed/{run}:
    get:
      operationId: timed
      parameters: [ { name: run, in: path, required: true, schema: { type: string } } ]
      responses: { '200': { description: OK } }
`,
  );
  const head = (title) => `arazzo: 1.0.1\ninfo: { title: ${title}, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: ./suite.openapi.yaml, type: openapi }\nworkflows:\n`;
  const step = (i, id) => `      - stepId: s${i}\n        operationId: getItem\n        parameters: [ { name: id, in: path, value: ${id} }, { name: n, in: query, value: ${i} } ]\n        successCriteria: [ { condition: $statusCode == 200 } ]\n        outputs: { next: $response.body#/next }\n`;
  writeFileSync(join(dir, 'three.arazzo.yaml'), `${head('three steps')}  - workflowId: three\n    steps:\n${step(0, 'k0')}${step(1, '$steps.s0.outputs.next')}${step(2, '$steps.s1.outputs.next')}`);
  writeFileSync(join(dir, 'row.arazzo.yaml'), `${head('one step a row')}  - workflowId: row\n    inputs: { type: object, properties: { id: { type: string }, n: { type: integer } }, required: [id, n] }\n    steps:\n      - stepId: get\n        operationId: getItem\n        parameters: [ { name: id, in: path, value: $inputs.id }, { name: n, in: query, value: $inputs.n } ]\n        successCriteria: [ { condition: $statusCode == 200 } ]\n`);
  writeFileSync(join(dir, 'timed.arazzo.yaml'), `${head('a step the server holds')}  - workflowId: timed\n    steps:\n      - stepId: held\n        operationId: timed\n        parameters: [ { name: run, in: path, value: latency } ]\n        successCriteria: [ { condition: $statusCode == 200 } ]\n`);
}

function writeRows(file, count) {
  const lines = ['id,n'];
  for (let i = 0; i < count; i++) lines.push(`k${i},${i}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

async function tool(args, dir, cliArgs) {
  const result = await timeNode([args.tool, 'arazzo', 'test', ...cliArgs], { cwd: dir, env: { XDG_CACHE_HOME: join(dir, 'cache'), XDG_CONFIG_HOME: join(dir, 'config') } });
  if (result.code !== 0) throw new Error(`tool arazzo test ${cliArgs.join(' ')} exited ${result.code}: ${result.stderr.slice(-2000)}`);
  return { ...result, summary: JSON.parse(result.stdout) };
}

async function throughput(args, dir, api) {
  const runs = args.quick ? 1000 : 10_000;
  const cli = await tool(args, dir, ['three.arazzo.yaml', '--repeat', String(runs), '--concurrency', String(CONCURRENCY), '--tool-retry', '0']);
  const raw = await timeNode([RAW, String(runs), '3', String(CONCURRENCY), api.url], { cwd: dir });
  if (raw.code !== 0) throw new Error(`raw got exited ${raw.code}: ${raw.stderr}`);
  const rawResult = JSON.parse(raw.stdout);
  const toolPerSecond = (runs * 3) / (cli.summary.durationMs / 1000);
  const rawPerSecond = rawResult.requests / (rawResult.totalMs / 1000);
  return { runs, requests: runs * 3, concurrency: CONCURRENCY, toolMs: cli.summary.durationMs, toolProcessMs: Math.round(cli.wallMs), rawMs: Math.round(rawResult.totalMs), toolRequestsPerSecond: Math.round(toolPerSecond), rawRequestsPerSecond: Math.round(rawPerSecond), ratio: round(toolPerSecond / rawPerSecond), target: '>= 0.7' };
}

async function memory(args, dir) {
  const small = args.quick ? 1000 : 10_000;
  const rss = {};
  for (const count of [small, small * 10]) {
    const rows = join(dir, `rows-${count}.csv`);
    writeRows(rows, count);
    const cli = await tool(args, dir, ['row.arazzo.yaml', '--workflow', 'row', '--data', rows, '--concurrency', String(CONCURRENCY), '--tool-retry', '0']);
    if (cli.summary.passed !== count) throw new Error(`${count} rows: ${cli.summary.passed} passed`);
    rss[count] = { peakMiB: round(cli.rssKiB / 1024), wallMs: Math.round(cli.wallMs) };
    rmSync(rows);
  }
  const [a, b] = [rss[small].peakMiB, rss[small * 10].peakMiB];
  return { rows: rss, ratio: round(b / a), target: '<= 1.2, and <= 250 MiB' };
}

async function latency(args, dir, api) {
  const runs = args.quick ? 200 : 1000;
  const cli = await tool(args, dir, ['timed.arazzo.yaml', '--repeat', String(runs), '--concurrency', String(args.latencyConcurrency), '--tool-retry', '0']);
  const held = cli.summary.stats.workflows[0].steps[0];
  const serverP50 = p50(await (await fetch(`${api.url}/timed-log/latency`)).json());
  // The same requests through raw got, one at a time: what a client sees beyond the server's own time.
  const { default: got } = await import('got');
  const client = got.extend({ agent: { http: new HttpAgent({ keepAlive: true }) }, retry: { limit: 0 } });
  const rawTimes = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await client(`${api.url}/timed/raw`);
    rawTimes.push(performance.now() - started);
  }
  const rawServerP50 = p50(await (await fetch(`${api.url}/timed-log/raw`)).json());
  return {
    runs,
    concurrency: args.latencyConcurrency,
    toolP50: held.p50,
    serverP50: round(serverP50),
    difference: `${round(((held.p50 - serverP50) / serverP50) * 100)}%`,
    rawGotP50: round(p50(rawTimes)),
    rawGotServerP50: round(rawServerP50),
    rawGotDifference: `${round(((p50(rawTimes) - rawServerP50) / rawServerP50) * 100)}%`,
    target: 'within 5% of the server log',
  };
}

function p50(values) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const api = await startApi();
  const dir = mkdtempSync(join(tmpdir(), 'tool-bench-suite-'));
  try {
    writeDocuments(dir, api.url);
    const results = { date: new Date().toISOString(), quick: args.quick };
    if (args.only.includes('throughput')) results.throughput = await throughput(args, dir, api);
    if (args.only.includes('memory')) results.memory = await memory(args, dir);
    if (args.only.includes('latency')) results.latency = await latency(args, dir, api);
    process.stdout.write(`arazzo test rows:\n${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(args.out, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`wrote ${args.out}\n`);
  } finally {
    api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
