/**
 * No secret and no terminal escape from a server reaches stdout or stderr: OAuth error echoes,
 * --fail bodies, bodies on a terminal, URLs with tokens, registry headers, dry-run form bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FIXTURES, fillTemplate, makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { tempHome, tool, type Home } from './auth-harness.js';
import { runTool } from './run-tool.js';

const ESC = '\u001b';
/** Any escape, C0 other than tab/newline, DEL, C1 or bidi control. */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = `${ESC}]0;owned${ESC}\\${ESC}[2J\u202e`;
const SECRETS = ['tok-Secret-1', 'glpat-Secret-9', 'cs-Secret-3', 'spec-Secret-7', 'spec-pass-8', 'fc-Secret-4', 'rt-Secret-5', 'pw-Secret-6'];

function expectClean(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(text).not.toMatch(UNPRINTABLE);
}

let server: TestServer;
let home: Home;
let ws: Workspace;

beforeAll(async () => {
  server = await startServer((hit, res) => {
    const url = new URL(hit.url, 'http://127.0.0.1');
    if (url.pathname === '/forms.openapi.yaml') {
      res.writeHead(200, { 'content-type': 'application/yaml' });
      res.end(fillTemplate(readFileSync(join(RUN_FIXTURES, 'secrets-forms.openapi.yaml'), 'utf8'), { BASE_URL: server.origin }));
      return;
    }
    if (url.pathname === '/token') {
      // A token endpoint that echoes what it was sent, escape sequences included.
      sendJson(res, 401, { error: `invalid_client${HOSTILE}`, error_description: `bad secret ${hit.body.toString()} (basic ${hit.headers.authorization ?? ''})${HOSTILE}\nsecond line` });
      return;
    }
    // An API that echoes the request's credentials in its answer.
    const echo = `${HOSTILE}you sent ${hit.headers.authorization ?? ''} and ${String(hit.headers['private-token'] ?? '')}`;
    res.writeHead(url.pathname === '/denied' ? 403 : 200, { 'content-type': 'text/plain', 'x-echo': 'tok-Secret-1' });
    res.end(`${echo}\n`);
  });
  ws = makeWorkspace('tool-secrets-');
  ws.fixture('secrets-forms.arazzo.yaml', { SPEC_URL: `http://u:spec-pass-8@127.0.0.1:${server.port}/forms.openapi.yaml?access_token=spec-Secret-7` });
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

describe('a registered API with a bearer token and a PRIVATE-TOKEN header', () => {
  beforeAll(async () => {
    home = await tempHome();
    const add = await tool(['api', 'add', 'pets', server.origin, '--header', 'PRIVATE-TOKEN: glpat-Secret-9', '--spec', `${server.origin}/forms.openapi.yaml?access_token=spec-Secret-7`], { env: home.env });
    expect(add.code).toBe(0);
    expect((await tool(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], { env: home.env, stdin: 'tok-Secret-1\n' })).code).toBe(0);
  });
  afterAll(() => home.remove());

  it('prints a --fail error body without the credentials it echoes or its escape sequences', async () => {
    const result = await tool(['get', 'pets/denied', '--fail'], { env: home.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: HTTP 403 Forbidden');
    expect(result.stderr).toContain('you sent *** and ***');
    expectClean(result.stderr);
  });

  it('masks echoed credentials and strips escapes from a body shown on a terminal, and from -v header lines', async () => {
    const result = await runTool(['get', 'pets/echo', '-v'], { env: home.env, stdoutIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('you sent *** and ***\n');
    expect(result.stderr).toContain('< x-echo: ***');
    expectClean(result.stdout);
    expectClean(result.stderr);
  });

  it('keeps the exact bytes when stdout is not a terminal', async () => {
    const result = await runTool(['get', 'pets/echo'], { env: home.env, stdoutIsTTY: false });
    expect(result.stdout).toContain(`${ESC}]0;owned`);
  });

  it('masks the spec URL token and the PRIVATE-TOKEN value in api show and api list, text and JSON', async () => {
    for (const argv of [['api', 'show', 'pets'], ['api', 'show', 'pets', '--output', 'json'], ['api', 'list'], ['api', 'list', '--output', 'json']]) {
      const result = await tool(argv, { env: home.env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('access_token=***');
      expectClean(result.stdout);
    }
    expect((await tool(['api', 'show', 'pets'], { env: home.env })).stdout).toContain('PRIVATE-TOKEN: ***');
  });

  it('lists the operations of a served description without the escape sequences of its summaries', async () => {
    const result = await tool(['api', 'ops', 'pets'], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/getToken\s+POST\s+\/token\s+Get a token$/m);
    expectClean(result.stdout);
  });
});

describe('OAuth token endpoints', () => {
  let oauthHome: Home;
  beforeAll(async () => {
    oauthHome = await tempHome();
    expect((await tool(['api', 'add', 'cc', server.origin], { env: oauthHome.env })).code).toBe(0);
  });
  afterAll(() => oauthHome.remove());

  it('prints the error of a token endpoint that echoes the client secret on one line, masked and without escapes', async () => {
    const result = await tool(
      ['auth', 'login', 'cc', '--type', 'oauth2-client-credentials', '--token-url', `${server.origin}/token`, '--client-id', 'tool', '--client-secret-env', 'CC_SECRET'],
      { env: { ...oauthHome.env, CC_SECRET: 'cs-Secret-3' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('answered invalid_client');
    expect(result.stderr).toContain('second line');
    expect(result.stderr.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1);
    expectClean(result.stderr);
  });
});

describe('tool arazzo validate', () => {
  it('prints findings that quote the document without its escape sequences', async () => {
    ws.fixture('secrets-escapes.arazzo.yaml');
    ws.fixture('secrets-escapes.openapi.yaml');
    const result = await runTool(['arazzo', 'validate', 'secrets-escapes.arazzo.yaml'], { cwd: ws.dir, env: { XDG_CACHE_HOME: join(ws.dir, 'cache') } });
    expect(result.code).toBe(10);
    expect(result.stdout + result.stderr).toContain('OPERATION_NOT_FOUND operation "op" is not in source "api"');
    expectClean(result.stdout + result.stderr);
  });
});

describe('tool arazzo run', () => {
  const env = () => ({ XDG_CONFIG_HOME: join(ws.dir, 'config'), XDG_CACHE_HOME: join(ws.dir, 'cache') });
  const inputs = ['--input', 'clientSecret=fc-Secret-4', '--input', 'refreshToken=rt-Secret-5', '--input', 'password=pw-Secret-6', '--input', 'note=plain'];

  it('masks the token and password of the description URL in the --verbose banner', async () => {
    const result = await runTool(['arazzo', 'run', 'secrets-forms.arazzo.yaml', '--dry-run', '--verbose', ...inputs], { env: env(), cwd: ws.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/description http:\/\/u:\*\*\*@127\.0\.0\.1:\d+\/forms\.openapi\.yaml\?access_token=\*\*\*/);
    expectClean(result.stderr);
  });

  it('masks client_secret, refresh_token and password in dry-run form and multipart bodies', async () => {
    const result = await runTool(['arazzo', 'run', 'secrets-forms.arazzo.yaml', '--dry-run', ...inputs], { env: env(), cwd: ws.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('"grant_type=refresh_token&client_secret=***&refresh_token=***&password=***"');
    expect(result.stderr).toContain('[{"name":"title","value":"report"},{"name":"password","value":"***"}]');
    expectClean(result.stderr);
  });
});

