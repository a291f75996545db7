/**
 * `arazzo run` explains itself on stderr: a failed step's exchange and criteria with their
 * operands, one line per action that fires, transport retries, a timeout's attempts, --verbose's
 * full exchanges, and what --quiet keeps. Secrets stay `***` and server text stays printable.
 */
import { describe, expect, it } from '@jest/globals';
import { recordOf } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const ESC = '\u001b';
const SECRET_NAME = 'Rex-secret-4f2a';
const BODY_TOKEN = 'tok-in-body-93ab';
/** Any escape, C0 other than tab/newline, DEL or C1. */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

// Raw escape sequences inside the JSON text (as a hostile server could send them), and a secret-named field.
const unprocessable = (hit: { body: string }) => ({
  status: 422,
  headers: { 'content-type': 'application/json' },
  body: `{"error":"name ${(JSON.parse(hit.body) as { name: string }).name} is taken${ESC}[2J${ESC}]0;owned${ESC}\\","token":"${BODY_TOKEN}","details":{"field":"name","rule":"unique"}}`,
});

/** The run's stderr with PET_NAME set: runs through runInWorkspace so the variable reaches --input-env. */
async function createWithEnv(args: string[] = [], routes: Record<string, unknown> = { 'POST /items': unprocessable }) {
  h.server.setRoutes(routes as never);
  const file = h.ws.fixture('explain-create.arazzo.yaml', { BASE_URL: h.server.url });
  return runInWorkspace(['arazzo', 'run', file, '--input-env', 'name=PET_NAME', ...args], { cwd: h.ws.dir, env: { PET_NAME: SECRET_NAME } });
}

describe('arazzo run: a failed step explained', () => {
  it('shows the request line, status, content type, body excerpt and each criterion with its operands', async () => {
    const result = await createWithEnv();
    expect(result.code).toBe(1);
    recordOf(result);
    const lines = result.stderr.split('\n');
    const at = lines.findIndex((line) => line.startsWith('✗ create POST'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe(`  > POST ${h.server.url}/items`);
    expect(lines[at + 2]).toBe('  < 422 Unprocessable Entity (application/json)');
    expect(lines[at + 3]).toMatch(/^ {4}\{"error":"name \*\*\* is taken","token":"\*\*\*","details":\{"field":"name","rule":"unique"\}\}$/);
    expect(lines[at + 4]).toBe('  $statusCode == 201  →  422 == 201  false');
    expect(lines[at + 5]).toBe('  $response.body.id != null && $statusCode < 300  false');
    expect(lines[at + 6]).toBe('    $response.body.id != null  →  null != null  false');
    expect(lines[at + 7]).toBe('    $statusCode < 300  →  422 < 300  false');
    // A big operand (here the body, text since its raw escapes make it invalid JSON) is shortened to 80 characters, and masked like the rest.
    const operand = /^ {2}\$response\.body != "accepted" {2}→ {2}(.*) != "accepted" {2}true$/.exec(lines[at + 8] ?? '');
    expect(operand?.[1]).toMatch(/^"\{\\"error\\":\\"name \*\*\* is taken.*…$/);
    expect(operand?.[1]).toHaveLength(80);
    expect(lines[at + 9]).toMatch(/^error: workflow "createOne" failed at step "create"/);
    expect(result.stderr).not.toContain(SECRET_NAME);
    expect(result.stderr).not.toContain(BODY_TOKEN);
    expect(result.stderr).not.toMatch(UNPRINTABLE);
  });

  it('cuts a body over 2 KiB at 2 KiB and says so', async () => {
    const result = await createWithEnv([], { 'POST /items': { status: 422, body: `${'x'.repeat(5000)}\n`, headers: { 'content-type': 'text/plain' } } });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    const body = lines.find((line) => line.startsWith('    xxx'));
    expect(body).toBe(`    ${'x'.repeat(2048)}`);
    expect(result.stderr).toContain('    … cut at 2048 of 5001 bytes (add --verbose, and --tool-body-limit, to see more)');
  });

  it('keeps the explanation under --quiet, after the error line it belongs to, and nothing else', async () => {
    const result = await createWithEnv(['--quiet']);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    const error = lines.findIndex((line) => line.startsWith('error: workflow "createOne" failed at step "create"'));
    expect(error).toBeGreaterThan(0);
    expect(lines[error + 1]).toBe(`  > POST ${h.server.url}/items`);
    expect(lines.slice(0, error).every((line) => line.startsWith('warning:') || line.startsWith('  To bind it'))).toBe(true);
    expect(lines).toContain('  $statusCode == 201  →  422 == 201  false');
    expect(result.stderr).not.toContain('✗ create');
    expect(result.stderr).not.toContain(SECRET_NAME);
  });

  it('explains nothing for a step that succeeds', async () => {
    const result = await createWithEnv([], { 'POST /items': { status: 201, body: { id: 1 } } });
    expect(result.stderr).not.toContain('  > POST');
  });
});

describe('arazzo run: actions and retries announced', () => {
  it('prints one line per action that fires, with its name and the criteria that matched', async () => {
    const result = await h.run('explain-actions.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': [{ status: 503 }, { status: 404 }], 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    const retry = lines.indexOf('  ↻ retry 1/3 in 50ms (action "busy": $statusCode == 503)');
    const goto = lines.indexOf('  → goto cleanup (action "cleanupOn404": $statusCode == 404)');
    const end = lines.indexOf('  ■ end (action "stop")');
    expect(retry).toBeGreaterThan(0);
    expect(goto).toBeGreaterThan(retry);
    expect(end).toBeGreaterThan(goto);
    expect(lines[end - 1]).toMatch(/^✓ cleanup GET /);
    expect(lines[retry - 1]).toMatch(/^ {2}\$statusCode == 200 {2}→ {2}503 == 200 {2}false$/);
  });

  it('says when a retry action reached its limit', async () => {
    const result = await h.run('explain-actions.arazzo.yaml', ['--tool-retry', '0'], { 'GET /a': { status: 503 } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('  ↻ retry 3/3 in 50ms (action "busy": $statusCode == 503)');
    expect(result.stderr).toContain('  ↻ no retry: the limit of 3 is reached (action "busy": $statusCode == 503)');
  });

  it('prints no action lines under --quiet', async () => {
    const result = await h.run('explain-actions.arazzo.yaml', ['--tool-retry', '0', '--quiet'], { 'GET /a': [{ status: 503 }, { status: 404 }], 'GET /cleanup': {} });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/[→↻■✓✗]/);
  });

  it('prints a line before each transport retry, with the status and the wait', async () => {
    const result = await h.run('transport-get.arazzo.yaml', [], { 'GET /a': [{ status: 503 }, { status: 503 }, { status: 200 }] });
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    const at = lines.findIndex((line) => line.startsWith('⟳'));
    expect(lines[at]).toMatch(/^⟳ fetch: 503 Service Unavailable, transport retry 1\/2 in \d+ms$/);
    expect(lines[at + 1]).toMatch(/^⟳ fetch: 503 Service Unavailable, transport retry 2\/2 in \d+ms$/);
    expect(lines[at + 2]).toMatch(/^✓ fetch GET /);
  });

  it('says how many attempts a timeout made and how long they took in all', async () => {
    const result = await h.run('option-slow.arazzo.yaml', ['--tool-timeout', '0.2'], { 'GET /slow': { delayMs: 30_000 } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/⟳ wait: timeout, transport retry 1\/2 in \d+ms/);
    expect(result.stderr).toMatch(/failed at step "wait": timed out after 0\.2 s \(3 attempts, \d+\.\d s in all\): GET /);
  });
});

describe('arazzo run --verbose', () => {
  it('prints every exchange, headers as sent with the credentials as ***, bodies up to --tool-body-limit', async () => {
    expect((await h.tool(['api', 'add', 'api', h.server.url])).code).toBe(0);
    const login = await runInWorkspace(['auth', 'login', 'api', '--type', 'bearer', '--with-token'], { cwd: h.ws.dir, input: 'bearer-Secret-71c2\n' });
    expect(login.code).toBe(0);
    const result = await h.run('transport-get.arazzo.yaml', ['--verbose', '--tool-body-limit', '16'], {
      'GET /a': { body: { message: 'hello from the server, at length' }, headers: { 'set-cookie': 'sid=cookie-Secret-1', 'x-request-id': 'r-1' } },
    });
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    const at = lines.findIndex((line) => line.startsWith('✓ fetch GET'));
    expect(lines[at + 1]).toBe(`  > GET ${h.server.url}/a`);
    expect(lines).toContain('  > authorization: ***');
    expect(lines).toContain('  < 200 OK');
    expect(lines).toContain('  < set-cookie: ***');
    expect(lines).toContain('  < x-request-id: r-1');
    expect(lines).toContain('    {"message":"hell');
    expect(lines).toContain('    … cut at 16 of 46 bytes (raise --tool-body-limit to see more)');
    expect(result.stderr).not.toContain('bearer-Secret-71c2');
    expect(result.stderr).not.toContain('cookie-Secret-1');
  });

  it('refuses a --tool-body-limit that is not a whole number', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--verbose', '--tool-body-limit', '4k'], { 'GET /a': {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tool-body-limit must be a whole number');
  });
});
