/**
 * `tool arazzo run` in-process through runCli with injected streams and signal: the fast checks
 * that do not need the real binary (stdout holds only the record, the abort signal stops the run).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { Collector } from './run-tool.js';

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
  ws = makeWorkspace('tool-cli-run-');
  ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  for (const name of ['state-success-outputs.arazzo.yaml', 'state-dry-run.arazzo.yaml', 'interrupt.arazzo.yaml', 'dry-run-unbuildable.arazzo.yaml', 'step-data-read.arazzo.yaml']) ws.fixture(name);
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

async function runInProcess(argv: string[], signal = new AbortController().signal) {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await runCli(argv, {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` },
    cwd: ws.dir,
    colors: false,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    signal,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('tool arazzo run in-process', () => {
  it("keeps a step's request and response for the later steps and outputs that read them, and only the outputs of the others", async () => {
    server.setRoutes({
      'POST /items': { status: 201, body: { id: 'x7' } },
      'GET /items/x7': { status: 200, body: { id: 'x7', name: 'Ann' } },
      'GET /a': { status: 200, body: { status: 'fine' } },
    });
    const result = await runInProcess(['arazzo', 'run', 'step-data-read.arazzo.yaml']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    // `plain` is read only as $steps.plain.response too, so it is kept; nothing reads a step it does not name.
    expect(JSON.parse(result.stdout).outputs).toEqual({ created: 'x7', sentName: 'Ann', plainStatus: 'fine' });
  });

  it('reports a request a dry run cannot build and moves on without retrying or sending', async () => {
    const hits = server.hits.length;
    const started = Date.now();
    const result = await runInProcess(['arazzo', 'run', 'dry-run-unbuildable.arazzo.yaml', '--dry-run']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).steps).toEqual([
      { stepId: 'read', status: 0, dryRun: true, outputs: {} },
      { stepId: 'create', status: 0, dryRun: true, outputs: {} },
    ]);
    expect(result.stderr).toMatch(/warning: step "read": the request could not be built: .*octet-stream/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.hits.length).toBe(hits);
  });

  it('fails the step with the fix, not an internal error, when the bound API has no usable credentials', async () => {
    expect((await runInProcess(['api', 'add', 'api', server.url])).code).toBe(0);
    expect((await runInProcess(['auth', 'login', 'api', '--type', 'bearer', '--token-env', 'TOOL_TEST_UNSET_TOKEN'])).code).toBe(0);
    try {
      server.setRoutes({ 'POST /items': { status: 201, body: { id: 'x1' } } });
      const result = await runInProcess(['arazzo', 'run', 'state-success-outputs.arazzo.yaml', '--input', 'name=Ann']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('TOOL_TEST_UNSET_TOKEN');
      expect(result.stderr).not.toContain('internal error');
      expect(JSON.parse(result.stdout).steps).toEqual([{ stepId: 'create', status: 0, dryRun: false, outputs: {} }]);
    } finally {
      expect((await runInProcess(['api', 'remove', 'api'])).code).toBe(0);
    }
  });

  it('fails a step whose input was not given before sending, and says which --input to add', async () => {
    const hits = server.hits.length;
    const result = await runInProcess(['arazzo', 'run', 'state-success-outputs.arazzo.yaml']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).steps).toEqual([{ stepId: 'create', status: 0, dryRun: false, outputs: {} }]);
    expect(result.stderr).toContain('request body at /name: $inputs.name resolved to nothing (give it with --input name=<value>)');
    expect(server.hits.length).toBe(hits);
  });

  it('writes only the run record to stdout and the progress to stderr', async () => {
    server.setRoutes({ 'POST /items': { status: 201, body: { id: 'x1' } }, 'GET /items/{id}': { body: { name: 'Ann' } } });
    const result = await runInProcess(['arazzo', 'run', 'state-success-outputs.arazzo.yaml', '--input', 'name=Ann']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ status: 'succeeded',
      workflowId: 'createAndRead',
      outputs: { id: 'x1', name: 'Ann', etag: null },
      steps: [
        { stepId: 'create', status: 201, dryRun: false, outputs: { id: 'x1' } },
        { stepId: 'read', status: 200, dryRun: false, outputs: { name: 'Ann', etag: null } },
      ],
    });
    expect(result.stderr).toMatch(/create POST .*\/items 201/);
    expect(result.stderr).toMatch(/read GET .*\/items\/x1 200/);
  });

  it('prints dry-run requests on stderr and records dryRun steps with status 0', async () => {
    server.setRoutes({});
    const result = await runInProcess(['arazzo', 'run', 'state-dry-run.arazzo.yaml', '--dry-run', '--input', 'name=Bo']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).steps).toEqual([
      { stepId: 'search', status: 0, dryRun: true, outputs: {} },
      { stepId: 'create', status: 0, dryRun: true, outputs: {} },
    ]);
    expect(result.stderr).toContain(`search GET ${server.url}/items?q=Bo\n`);
    expect(server.hits).toHaveLength(0);
  });

  it('returns 130 with an empty record when the signal is already aborted, sending nothing', async () => {
    server.setRoutes({ 'GET /a': {} });
    const controller = new AbortController();
    controller.abort();
    const result = await runInProcess(['arazzo', 'run', 'interrupt.arazzo.yaml'], controller.signal);
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stdout)).toEqual({ workflowId: 'interrupted', status: 'failed', failure: { code: 'INTERRUPTED', message: 'interrupted (Ctrl-C or a signal); nothing more was sent' }, outputs: {}, steps: [] });
    expect(server.hits).toHaveLength(0);
  });

  it('returns 130 soon after an abort during a slow request, with the steps done so far', async () => {
    server.setRoutes({ 'GET /a': { body: { n: 2 } }, 'GET /slow': { delayMs: 30_000 }, 'GET /b': {} });
    const controller = new AbortController();
    const pending = runInProcess(['arazzo', 'run', 'interrupt.arazzo.yaml', '--tool-retry', '0'], controller.signal);
    while (!server.hits.some((hit) => hit.path === '/slow')) await new Promise((resolve) => setTimeout(resolve, 10));
    const abortedAt = Date.now();
    controller.abort();
    const result = await pending;
    expect(result.code).toBe(130);
    // Well under the 30 s the response would take, with room for a loaded machine.
    expect(Date.now() - abortedAt).toBeLessThan(10_000);
    expect(JSON.parse(result.stdout).steps).toEqual([{ stepId: 'quick', status: 200, dryRun: false, outputs: { n: 2 } }]);
    expect(server.count('GET /b')).toBe(0);
  });
});
