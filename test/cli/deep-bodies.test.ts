/**
 * Response bodies nested thousands of levels deep: `tool get` prints them and a workflow passes
 * them through outputs, comparisons and templates, without overflowing the stack (exit 70).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startScriptedServer, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { deepJson, depthOf } from './deep-json.js';
import { runTool } from './run-tool.js';

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
  ws = makeWorkspace('tool-deep-bodies-');
  ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  ws.fixture('deep-output.arazzo.yaml');
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

const env = () => ({ XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` });

describe('tool get of a deeply nested JSON body', () => {
  it.each([true, false])('prints a 20,000-deep body (stdout a terminal: %s)', async (stdoutIsTTY) => {
    const text = deepJson(20_000);
    server.setRoutes({ 'GET /deep': { body: text, headers: { 'content-type': 'application/json' } } });
    const result = await runTool(['get', `${server.url}/deep`], { stdoutIsTTY, env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Too deep to indent: the terminal gets the body as it came, with a final newline.
    expect(result.stdout).toBe(stdoutIsTTY ? `${text}\n` : text);
  });

  it('still indents a body of ordinary depth on a terminal', async () => {
    server.setRoutes({ 'GET /shallow': { body: deepJson(2), headers: { 'content-type': 'application/json' } } });
    const result = await runTool(['get', `${server.url}/shallow`], { stdoutIsTTY: true, env: env() });
    expect(result.stdout).toBe('{\n  "a": {\n    "a": 0\n  }\n}\n');
  });
});

describe('a workflow whose response body nests thousands of levels deep', () => {
  it.each([3_000, 20_000])('compares it, interpolates it and prints it as an output (%d levels)', async (depth) => {
    server.setRoutes({ 'GET /a': { body: deepJson(depth), headers: { 'content-type': 'application/json' } }, 'POST /items': { status: 201 } });
    const result = await runTool(['arazzo', 'run', 'deep-output.arazzo.yaml', '--quiet'], { cwd: ws.dir, env: env() });
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    expect(depthOf((JSON.parse(result.stdout) as { outputs: { body: unknown } }).outputs.body)).toBe(depth);
    expect(JSON.parse(server.hits[1]!.body)).toEqual({ text: `got ${deepJson(depth)}` });
  });

  it('prints the record as YAML too (JSON, which is YAML, when it nests too deep for the YAML printer)', async () => {
    server.setRoutes({ 'GET /a': { body: deepJson(3_000), headers: { 'content-type': 'application/json' } }, 'POST /items': { status: 201 } });
    const result = await runTool(['arazzo', 'run', 'deep-output.arazzo.yaml', '--quiet', '--output', 'yaml'], { cwd: ws.dir, env: env() });
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    // JSON text is valid YAML 1.2.
    expect(depthOf((JSON.parse(result.stdout) as { outputs: { body: unknown } }).outputs.body)).toBe(3_000);
  });

  it('prints an ordinary record as YAML', async () => {
    server.setRoutes({ 'GET /a': { body: deepJson(2), headers: { 'content-type': 'application/json' } }, 'POST /items': { status: 201 } });
    const result = await runTool(['arazzo', 'run', 'deep-output.arazzo.yaml', '--quiet', '--output', 'yaml'], { cwd: ws.dir, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('outputs:\n  body:\n    a:\n      a: 0\n');
  });
});
