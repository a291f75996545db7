/**
 * What only the real process can show, through `node bin/tool.js` (the bundle, built once per run
 * by helpers/build.ts): its exit codes, stdout holding exactly the record (or exactly the response
 * bytes) on a real pipe, and a body read from a real stdin. Everything else about a command is
 * tested in-process through runCli (test/cli/); signals: run-interrupt, stop-signals; failing
 * streams: stream-failures.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useRunHarness } from './helpers/harness.js';
import { expectNoRun, recordOf } from './helpers/record.js';
import type { Hit, Reply } from './helpers/scripted-server.js';
import { runToolWithInput } from './helpers/tool-with-input.js';

const PET_JSON = fileURLToPath(new URL('../fixtures/requests/pet.json', import.meta.url));
const h = useRunHarness();

const tool = (args: readonly string[], input?: string) => runToolWithInput(args, { cwd: h.ws.dir, ...(input !== undefined ? { input } : {}) });
/** Echoes what arrived as JSON. */
const echo = (hit: Hit): Reply => ({ body: { method: hit.method, path: hit.path, query: hit.query, contentType: hit.headers['content-type'] ?? null, body: hit.body } });

describe('the real binary: exit codes and exactly one record on stdout', () => {
  it('runs every step in order on success, evaluates outputs and emits the workflow outputs', async () => {
    const result = await h.run('state-success-outputs.arazzo.yaml', ['--input', 'name=Rex'], {
      'POST /items': { status: 201, body: { id: 'i-7' } },
      'GET /items/{id}': (hit) => ({ status: 200, body: { name: 'Rex', path: hit.path }, headers: { ETag: 'W/"1"' } }),
    });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record).toEqual({ status: 'succeeded',
      workflowId: 'createAndRead',
      outputs: { id: 'i-7', name: 'Rex', etag: 'W/"1"' },
      steps: [
        { stepId: 'create', status: 201, dryRun: false, outputs: { id: 'i-7' } },
        { stepId: 'read', status: 200, dryRun: false, outputs: { name: 'Rex', etag: 'W/"1"' } },
      ],
    });
    expect(h.server.hits.map((hit) => `${hit.method} ${hit.path}`)).toEqual(['POST /items', 'GET /items/i-7']);
    expect(JSON.parse(h.server.hits[0]!.body)).toEqual({ name: 'Rex', tags: ['e2e'], count: 2 });
  });

  it('stops with exit 1 when a step fails and no action applies, printing the partial record and naming workflow and step', async () => {
    const result = await h.run('state-failure-no-action.arazzo.yaml', [], {
      'GET /a': { body: { value: 5 } },
      'GET /b': { status: 422, body: { error: 'unprocessable' } },
      'GET /c': {},
    });
    expect(result.code).toBe(1);
    const record = recordOf(result);
    expect(record.outputs).toEqual({});
    expect(record.steps).toEqual([
      { stepId: 'first', status: 200, dryRun: false, outputs: { value: 5 } },
      { stepId: 'second', status: 422, dryRun: false, outputs: {} },
    ]);
    expect(record.steps[1]).not.toHaveProperty('failedVia');
    expect(result.stderr).toContain('workflow "stopsOnFailure" failed at step "second"');
    expect(result.stderr).toContain('422');
    expect(h.server.count('GET /c')).toBe(0);
  });


  it('exits 10 on a file that is not YAML, naming line and column', async () => {
    h.ws.write('broken.arazzo.yaml', 'arazzo: 1.0.1\ninfo: [unclosed\n');
    const result = await h.tool(['arazzo', 'run', 'broken.arazzo.yaml']);
    expectNoRun(result, 10);
    expect(result.stderr).toMatch(/broken\.arazzo\.yaml:\d+:\d+/);
  });

  it('exits 2 when the file does not exist', async () => {
    const result = await h.tool(['arazzo', 'run', 'no-such-file.arazzo.yaml']);
    expectNoRun(result, 2);
    expect(result.stderr).toContain('no-such-file.arazzo.yaml');
  });
});

describe('the real binary: stdin and stdout bytes of direct calls', () => {
  it('sends a file byte for byte with -d @file, and stdin with -d -', async () => {
    h.server.setRoutes({ 'PUT /things/7': echo });
    const fromFile = await tool(['put', `${h.server.url}/things/7`, '--json', '-d', `@${PET_JSON}`]);
    expect((JSON.parse(fromFile.stdout) as Record<string, unknown>).body).toBe(readFileSync(PET_JSON, 'utf8'));
    const fromStdin = await tool(['put', `${h.server.url}/things/7`, '-H', 'Content-Type: text/plain', '-d', '-'], 'line one\nline two\n');
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ contentType: 'text/plain', body: 'line one\nline two\n' });
  });

  it('writes the exact bytes received when stdout is not a terminal: JSON untouched, binary intact', async () => {
    const json = '{ "big": 12345678901234567890,  "n": 1.50 }';
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0a, 0x0d]);
    h.server.setRoutes({ 'GET /data.json': { body: json, headers: { 'content-type': 'application/json' } } });
    expect((await tool(['get', `${h.server.url}/data.json`])).stdout).toBe(json);
    const { createServer } = await import('node:http');
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(binary);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const address = raw.address() as { port: number };
      const result = await tool(['get', `http://127.0.0.1:${address.port}/logo.png`]);
      expect(result.code).toBe(0);
      expect(result.bytes.equals(binary)).toBe(true);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});
