/**
 * Writes the benchmark's documents into a directory: one OpenAPI description of the bench API and
 * one Arazzo document per scenario, in YAML block style as people write them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** The OpenAPI 3.0 description of bench/api-server.js, served at `baseUrl`. */
function openapi(baseUrl) {
  const ok = (schema) => ({ description: 'OK', content: { 'application/json': { schema } } });
  return {
    openapi: '3.0.3',
    info: { title: 'Benchmark API', version: '1.0.0' },
    servers: [{ url: baseUrl }],
    paths: {
      '/items/{id}': {
        get: {
          operationId: 'getItem',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'n', in: 'query', schema: { type: 'integer' } },
          ],
          responses: { 200: ok({ type: 'object' }) },
        },
      },
      '/loops/{run}/tick': {
        get: {
          operationId: 'tick',
          parameters: [
            { name: 'run', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'total', in: 'query', schema: { type: 'integer' } },
          ],
          responses: { 200: ok({ type: 'object' }) },
        },
      },
      '/flaky/{run}/{i}': {
        get: {
          operationId: 'flaky',
          parameters: [
            { name: 'run', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'i', in: 'path', required: true, schema: { type: 'integer' } },
          ],
          responses: { 200: ok({ type: 'object' }), 503: { description: 'Busy' } },
        },
      },
    },
  };
}

function arazzo(workflowId, steps, outputs, inputs, version = '1.0.1') {
  return {
    arazzo: version,
    info: { title: `benchmark ${workflowId}`, version: '1.0.0' },
    sourceDescriptions: [{ name: 'bench', url: './bench.openapi.yaml', type: 'openapi' }],
    workflows: [{ workflowId, inputs: { type: 'object', properties: inputs }, steps, outputs }],
  };
}

/**
 * `n` steps in a chain: step i GETs /items/{id}?n=i where id is step i-1's output `next` (a path
 * parameter, a query parameter and an output feeding the next step, as the issue asks).
 */
function linear(n, scenario = {}) {
  const steps = [];
  for (let i = 0; i < n; i++) {
    steps.push({
      stepId: `s${i}`,
      operationId: 'getItem',
      parameters: [
        { name: 'id', in: 'path', value: i === 0 ? 'k0' : `$steps.s${i - 1}.outputs.next` },
        { name: 'n', in: 'query', value: i },
      ],
      successCriteria: [{ condition: '$statusCode == 200' }],
      outputs: { next: '$response.body#/next' },
    });
  }
  return arazzo(`linear${n}`, steps, { last: `$steps.s${n - 1}.outputs.next` }, {}, scenario.arazzo);
}

/** One step that goes back to itself until the server says none remain: `total` step runs. */
function loop(total) {
  const step = {
    stepId: 'tick',
    operationId: 'tick',
    parameters: [
      { name: 'run', in: 'path', value: '$inputs.run' },
      { name: 'total', in: 'query', value: total },
    ],
    successCriteria: [{ condition: '$statusCode == 200' }],
    onSuccess: [{ name: 'again', type: 'goto', stepId: 'tick', criteria: [{ condition: '$response.body#/remaining > 0' }] }],
    outputs: { count: '$response.body#/count' },
  };
  return arazzo(`loop${total}`, [step], { count: '$steps.tick.outputs.count' }, { run: { type: 'string' } });
}

/** `n` steps whose first call answers 503; a retry action (retryAfter 0) repeats each once. */
function retry(n) {
  const steps = [];
  for (let i = 0; i < n; i++) {
    steps.push({
      stepId: `r${i}`,
      operationId: 'flaky',
      parameters: [
        { name: 'run', in: 'path', value: '$inputs.run' },
        { name: 'i', in: 'path', value: i },
      ],
      successCriteria: [{ condition: '$statusCode == 200' }],
      onFailure: [{ name: 'busy', type: 'retry', retryAfter: 0, retryLimit: 2, criteria: [{ condition: '$statusCode == 503' }] }],
      outputs: { i: '$response.body#/i' },
    });
  }
  return arazzo(`retry${n}`, steps, { last: `$steps.r${n - 1}.outputs.i` }, { run: { type: 'string' } });
}

/**
 * linear(n) split into nested calls (v2): `main` has n/10 steps, each calling `chunk`, whose 10
 * steps are the same chained GETs as linear's; each call starts from the previous one's output
 * `next`. The same 1000 requests as linear-1000, through 100 child machines.
 */
function nested(n) {
  const calls = n / 10;
  const chunkSteps = [];
  for (let i = 0; i < 10; i++) {
    chunkSteps.push({
      stepId: `c${i}`,
      operationId: 'getItem',
      parameters: [
        { name: 'id', in: 'path', value: i === 0 ? '$inputs.start' : `$steps.c${i - 1}.outputs.next` },
        { name: 'n', in: 'query', value: i },
      ],
      successCriteria: [{ condition: '$statusCode == 200' }],
      outputs: { next: '$response.body#/next' },
    });
  }
  const mainSteps = [];
  for (let i = 0; i < calls; i++) {
    mainSteps.push({
      stepId: `call${i}`,
      workflowId: 'chunk',
      parameters: [{ name: 'start', value: i === 0 ? 'k0' : `$steps.call${i - 1}.outputs.next` }],
      outputs: { next: '$outputs.next' },
    });
  }
  const doc = arazzo(`nested${n}`, mainSteps, { last: `$steps.call${calls - 1}.outputs.next` }, {});
  doc.workflows.push({ workflowId: 'chunk', inputs: { type: 'object', properties: { start: { type: 'string' } } }, steps: chunkSteps, outputs: { next: '$steps.c9.outputs.next' } });
  return doc;
}

/** Which generator each scenario kind uses. */
const KINDS = { linear, loop, retry, nested };

/**
 * Writes `bench.openapi.yaml` and `<name>.arazzo.yaml` for each scenario into `dir`; returns the
 * scenario list with `file` set. A scenario is `{ name, kind, size }`.
 */
export function writeWorkflows(dir, baseUrl, scenarios) {
  writeFileSync(join(dir, 'bench.openapi.yaml'), stringify(openapi(baseUrl)));
  return scenarios.map((scenario) => {
    const file = join(dir, `${scenario.name}.arazzo.yaml`);
    writeFileSync(file, stringify(KINDS[scenario.kind](scenario.size, scenario), { lineWidth: 0 }));
    return { ...scenario, file };
  });
}
