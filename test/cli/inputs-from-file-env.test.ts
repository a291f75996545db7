/** `--input-env` and `--inputs-file`: inputs that need not be on argv, and env inputs treated as secrets on stderr. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { startServer, type TestServer } from '../unit/http/test-server.js';
import { runTool } from './run-tool.js';

let server: TestServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startServer((_hit, res) => res.end());
  ws = makeWorkspace('tool-inputs-');
  ws.fixture('secrets-forms.openapi.yaml', { BASE_URL: server.origin }, 'forms.openapi.yaml');
  ws.fixture('secrets-forms.arazzo.yaml', { SPEC_URL: './forms.openapi.yaml' });
  for (const name of ['secrets-inputs.yaml', 'secrets-inputs-broken.yaml', 'secrets-inputs-list.yaml']) ws.fixture(name);
  ws.write('inputs.json', '{"note": 42, "clientSecret": "json-secret", "refreshToken": "r", "password": "p"}');
});
afterAll(async () => {
  await server.close();
  ws.remove();
});

const env = (extra: Record<string, string> = {}) => ({ XDG_CONFIG_HOME: join(ws.dir, 'config'), XDG_CACHE_HOME: join(ws.dir, 'cache'), ...extra });
const run = (args: string[], extra: Record<string, string> = {}) => runTool(['arazzo', 'run', 'secrets-forms.arazzo.yaml', '--dry-run', ...args], { env: env(extra), cwd: ws.dir });
/** The dry-run lines of the `read` step: request line, headers, body. */
const readStep = (stderr: string) => stderr.split('\n').filter((line, i, all) => line.startsWith('read ') || all[i - 1]?.startsWith('read '));

describe('--input-env', () => {
  it('reads the value from the variable and shows it as *** on stderr; the record on stdout has the outputs the workflow defines', async () => {
    const result = await run(['--inputs-file', 'secrets-inputs.yaml', '--input-env', 'note=NOTE_VAR', '--verbose'], { NOTE_VAR: 'env-note-Secret' });
    expect(result.code).toBe(0);
    expect(readStep(result.stderr)).toEqual(['read GET http://127.0.0.1:' + server.port + '/notes/***', '{"X-Note":"***"}']);
    expect(result.stderr).not.toContain('env-note-Secret');
    expect(JSON.parse(result.stdout).outputs).toEqual({ note: 'env-note-Secret' });
    expect(server.hits).toHaveLength(0);
  });

  it('keeps the value out of the trace file', async () => {
    const result = await run(['--inputs-file', 'secrets-inputs.yaml', '--input-env', 'note=NOTE_VAR', '--trace', 'run.ndjson'], { NOTE_VAR: 'env-note-Secret' });
    expect(result.code).toBe(0);
    const trace = readFileSync(join(ws.dir, 'run.ndjson'), 'utf8');
    expect(trace).toContain('/notes/***');
    expect(trace).not.toContain('env-note-Secret');
  });

  it('exits 2 and names the variable when it is not set, before anything is sent', async () => {
    const result = await run(['--inputs-file', 'secrets-inputs.yaml', '--input-env', 'note=TOOL_TEST_UNSET_VAR']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --input-env note: the environment variable TOOL_TEST_UNSET_VAR is not set');
    expect(result.stdout).toBe('');
  });

  it.each([['note'], ['=VAR'], ['note=not a name']])('exits 2 for the malformed flag --input-env %s', async (flag) => {
    const result = await run(['--input-env', flag]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not name=VARIABLE');
  });

  it('refuses an input given by both --input and --input-env', async () => {
    const result = await run(['--input', 'note=a', '--input-env', 'note=NOTE_VAR'], { NOTE_VAR: 'b' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('input "note" is given by both --input and --input-env');
  });
});

describe('--inputs-file', () => {
  it('gives the inputs from a YAML object, and --input overrides them', async () => {
    const fromFile = await run(['--inputs-file', 'secrets-inputs.yaml']);
    expect(fromFile.code).toBe(0);
    expect(readStep(fromFile.stderr)[0]).toMatch(/\/notes\/from-file$/);
    const overridden = await run(['--inputs-file', 'secrets-inputs.yaml', '--input', 'note=from-flag']);
    expect(readStep(overridden.stderr)[0]).toMatch(/\/notes\/from-flag$/);
  });

  it('takes JSON with values of any type, and masks inputs with secret-like names', async () => {
    const result = await run(['--inputs-file', 'inputs.json']);
    expect(result.code).toBe(0);
    expect(readStep(result.stderr)[0]).toMatch(/\/notes\/42$/);
    expect(result.stderr).not.toContain('json-secret');
  });

  it('reports a syntax error as file:line:col without quoting the line', async () => {
    const result = await run(['--inputs-file', 'secrets-inputs-broken.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: secrets-inputs-broken\.yaml:\d+:\d+: invalid JSON or YAML/m);
    expect(result.stderr).not.toContain('unclosed');
  });

  it('refuses a file that is not an object, and a missing file', async () => {
    const list = await run(['--inputs-file', 'secrets-inputs-list.yaml']);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('error: secrets-inputs-list.yaml:1:1: the inputs file is not an object');
    const missing = await run(['--inputs-file', 'nope.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the inputs file nope.yaml: ENOENT');
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [join(ws.dir, 'inputs.fifo')]);
    const result = await run(['--inputs-file', 'inputs.fifo']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the inputs file inputs.fifo is not a regular file');
  });
});
