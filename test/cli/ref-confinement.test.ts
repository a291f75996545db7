/**
 * `tool arazzo run` and `validate` in-process: what a description's `$ref`s may read and reach,
 * the same refusal (exit 2, nothing sent) in both commands, and what --dry-run fetches.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { runTool } from './run-tool.js';

let root: string;
let api: TestServer;
let other: TestServer;
const bodies: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tool-cli-refs-'));
  await mkdir(join(root, 'config', 'tool'), { recursive: true });
  await writeFile(join(root, 'config', 'tool', 'credentials.json'), JSON.stringify({ credentials: { github: { secret: 'ghp_s3cr3t' } } }));
  const serve = (server: () => TestServer) => (hit: { url: string }, res: import('node:http').ServerResponse) => {
    const text = bodies[`${server().origin}${hit.url}`];
    if (text !== undefined) res.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
    else sendJson(res, 200, { ok: true });
  };
  api = await startServer(serve(() => api));
  other = await startServer(serve(() => other));
});

afterAll(async () => {
  await Promise.all([api.close(), other.close()]);
  await rm(root, { recursive: true, force: true });
});

const env = () => ({ XDG_CONFIG_HOME: join(root, 'config'), XDG_CACHE_HOME: join(root, 'cache') });

/** A project folder holding flow.arazzo.yaml, whose one step calls operation `a` of the source at `sourceUrl`. */
async function project(name: string, sourceUrl: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  const flow = `arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions:\n  - {name: api, url: '${sourceUrl}'}\nworkflows:\n  - workflowId: w\n    steps:\n      - {stepId: s, operationId: a}\n`;
  await writeFile(join(dir, 'flow.arazzo.yaml'), flow);
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

/** An OpenAPI description with operation `GET /things` (id `a`), server `serverUrl` and `extra` YAML at the top. */
function description(serverUrl: string, extra = '', parameters = '[]'): string {
  return `openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers:\n  - url: '${serverUrl}'\n${extra}paths:\n  /things:\n    get:\n      operationId: a\n      parameters: ${parameters}\n      responses: {'200': {description: ok}}\n`;
}

const run = (dir: string, ...flags: string[]) => runTool(['arazzo', 'run', 'flow.arazzo.yaml', ...flags], { cwd: dir, env: env() });
const validate = (dir: string) => runTool(['arazzo', 'validate', 'flow.arazzo.yaml'], { cwd: dir, env: env() });

describe('file $refs from a local description', () => {
  it("refuses a $ref into tool's credentials with exit 2 in run --dry-run and in validate, the same message, the secret never shown, nothing sent", async () => {
    const serverVars = `    variables:\n      v: {default: {$ref: '../config/tool/credentials.json#/credentials/github/secret'}}\n`;
    const text = description(`${api.origin}/{v}`).replace(/(  - url: .*\n)/, `$1${serverVars}`);
    const dir = await project('secrets', './api.yaml', { 'api.yaml': text });
    const hits = api.hits.length;
    const ran = await run(dir, '--dry-run');
    const checked = await validate(dir);
    expect(ran.code).toBe(2);
    expect(checked.code).toBe(2);
    expect(ran.stderr).toContain(
      `error: ${join(dir, 'api.yaml')}#/servers/0/variables/v/default: $ref "../config/tool/credentials.json#/credentials/github/secret" is refused: it is inside tool's own folder ${join(root, 'config', 'tool')}, which descriptions may never read`,
    );
    expect(checked.stderr).toBe(ran.stderr.slice(ran.stderr.indexOf('error: ')));
    expect(`${ran.stdout}${ran.stderr}${checked.stdout}`).not.toContain('ghp_s3cr3t');
    expect(ran.stderr).not.toMatch(/\n\s+at /);
    expect(api.hits.length).toBe(hits);
  });

  it('runs a description whose x- extension refers to a Markdown file and a missing one', async () => {
    const extra = "x-readme: {$ref: './README.md'}\nx-gone: {$ref: './gone.yaml'}\n";
    const dir = await project('extension', './api.yaml', { 'api.yaml': description(api.origin, extra), 'README.md': '# Read me: {{ not YAML\n' });
    const result = await run(dir);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
  });
});

describe('YAML alias bombs in a description', () => {
  it('are the same clear error, exit 2, in validate and run', async () => {
    const bomb = 'x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nx-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nx-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nx-d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n';
    const dir = await project('bomb', './api.yaml', { 'api.yaml': description(api.origin, bomb) });
    const ran = await run(dir, '--dry-run');
    const checked = await validate(dir);
    const expected = `error: ${join(dir, 'api.yaml')}: YAML aliases expand to too many nodes (more than 100 alias uses); refusing to expand a possible "billion laughs" document (write the repeated values out)\n`;
    expect([ran.code, checked.code]).toEqual([2, 2]);
    expect(ran.stderr.endsWith(expected)).toBe(true);
    expect(checked.stderr).toBe(expected);
  });
});

describe('remote $refs from a remote description', () => {
  it('refuses a $ref to another origin, naming the flag, without fetching it; --tool-allow-ref-host allows it', async () => {
    const parameter = `[{$ref: '${other.origin}/common.yaml#/Limit'}]`;
    bodies[`${api.origin}/api.yaml`] = description(api.origin, '', parameter);
    bodies[`${other.origin}/common.yaml`] = 'Limit: {name: limit, in: query}\n';
    const dir = await project('remote', `${api.origin}/api.yaml`);
    const before = other.hits.length;
    const refused = await run(dir, '--dry-run');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`is refused: a remote description's $refs must stay on its origin (${api.origin}), and 127.0.0.1:${other.port} is not allowed; pass --tool-allow-ref-host 127.0.0.1 if you trust it`);
    expect(other.hits.length).toBe(before);
    const allowed = await run(dir, '--dry-run', '--tool-allow-ref-host', `127.0.0.1:${other.port}`);
    expect(allowed.stderr).not.toContain('error');
    expect(allowed.code).toBe(0);
    expect(other.hits.map((hit) => hit.url)).toEqual(['/common.yaml']);
  });

  it('refuses a --tool-allow-ref-host value that is not a host', async () => {
    const dir = await project('bad-host', './api.yaml', { 'api.yaml': description(api.origin) });
    const result = await run(dir, '--dry-run', '--tool-allow-ref-host', 'https://example.com/x');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tool-allow-ref-host "https://example.com/x" is not a host name');
  });
});

describe('--dry-run', () => {
  it("fetches the source description and its $refs, and never a step's request", async () => {
    bodies[`${api.origin}/dry/api.yaml`] = description(api.origin, '', "[{$ref: 'common.yaml#/Limit'}]");
    bodies[`${api.origin}/dry/common.yaml`] = 'Limit: {name: limit, in: query}\n';
    const dir = await project('dry', `${api.origin}/dry/api.yaml`);
    const before = api.hits.length;
    const result = await run(dir, '--dry-run', '--input', 'x=1');
    expect(result.code).toBe(0);
    expect(api.hits.slice(before).map((hit) => hit.url)).toEqual(['/dry/api.yaml', '/dry/common.yaml']);
  });
});
