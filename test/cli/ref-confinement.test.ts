/**
 * `tool arazzo run` and `validate` in-process: what a description's `$ref`s may read and reach,
 * the same refusal (exit 2, nothing sent) in both commands, and what --dry-run fetches.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
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

describe('--tool-allow-read', () => {
  /** repo/workflows/flow.arazzo.yaml with its description in repo/openapi/ (a file $ref inside it), the common layout. */
  async function repository(name: string, parameter = "[{$ref: './common.yaml#/Limit'}]"): Promise<string> {
    const repo = join(root, name);
    await mkdir(join(repo, 'openapi'), { recursive: true });
    await project(join(name, 'workflows'), '../openapi/api.yaml');
    await writeFile(join(repo, 'openapi', 'api.yaml'), description(api.origin, '', parameter));
    await writeFile(join(repo, 'openapi', 'common.yaml'), 'Limit: {name: limit, in: query}\n');
    return join(repo, 'workflows');
  }
  const validateWith = (dir: string, ...flags: string[]) => runTool(['arazzo', 'validate', 'flow.arazzo.yaml', ...flags], { cwd: dir, env: env() });

  it('refuses a --tool-allow-read folder that does not exist, or a file, in run and validate', async () => {
    const dir = await repository('layout-typo');
    for (const result of [await run(dir, '--dry-run', '--tool-allow-read', '../openapii'), await validateWith(dir, '--tool-allow-read', '../openapii')]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--tool-allow-read "../openapii": no such folder');
    }
    const file = await validateWith(dir, '--tool-allow-read', 'flow.arazzo.yaml');
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('is not a folder');
  });

  it('refuses a description outside the document folder in run and validate, naming the flag and the folder to pass', async () => {
    const dir = await repository('layout-refused');
    const ran = await run(dir, '--dry-run');
    const checked = await validateWith(dir);
    expect([ran.code, checked.code]).toEqual([2, 2]);
    const message = `${join(root, 'layout-refused', 'openapi', 'api.yaml')}: refusing to read the description: it resolves to ${join(root, 'layout-refused', 'openapi', 'api.yaml')}, outside the allowed folder (files must stay inside ${dir}); pass --tool-allow-read ../openapi if you trust it`;
    expect(ran.stderr).toContain(`error: ${message}\n`);
    expect(checked.stderr).toContain(`error: ${message}\n`);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
  });

  it('lets run and validate read the folder given, file $refs inside it included', async () => {
    const dir = await repository('layout-allowed');
    const ran = await run(dir, '--dry-run', '--tool-allow-read', '../openapi');
    expect(ran.stderr).not.toContain('error');
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(`GET ${api.origin}/things`);
    const checked = await validateWith(dir, '--tool-allow-read', '../openapi');
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  });

  it("names the folder of a $ref target outside every allowed folder, and never opens tool's own folders", async () => {
    const dir = await repository('layout-ref', "[{$ref: '../shared/common.yaml#/Limit'}]");
    await mkdir(join(root, 'layout-ref', 'shared'), { recursive: true });
    await writeFile(join(root, 'layout-ref', 'shared', 'common.yaml'), 'Limit: {name: limit, in: query}\n');
    const ref = await run(dir, '--dry-run', '--tool-allow-read', '../openapi');
    expect(ref.code).toBe(2);
    expect(ref.stderr).toContain('$ref "../shared/common.yaml#/Limit" is refused: it resolves to');
    expect(ref.stderr).toContain('pass --tool-allow-read ../shared if you trust it');
    const both = await validateWith(dir, '--tool-allow-read', '../openapi', '--tool-allow-read', '../shared');
    expect(both.code).toBe(0);

    const secret = await repository('layout-secret', "[{$ref: '../../config/tool/credentials.json#/credentials/github/secret'}]");
    for (const result of [await run(secret, '--dry-run', '--tool-allow-read', root), await validateWith(secret, '--tool-allow-read', root)]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`is refused: it is inside tool's own folder ${join(root, 'config', 'tool')}, which descriptions may never read`);
      expect(result.stderr).not.toContain('ghp_s3cr3t');
    }
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

describe('remote $refs from a local description', () => {
  it('refuses a $ref to a loopback address before anything is sent; --tool-allow-ref-host 127.0.0.1 allows it', async () => {
    bodies[`${other.origin}/x`] = 'Limit: {name: limit, in: query}\n';
    const dir = await project('local-to-loopback', './api.yaml', { 'api.yaml': description(api.origin, '', `[{$ref: '${other.origin}/x#/Limit'}]`) });
    const before = other.hits.length;
    for (const result of [await run(dir, '--dry-run'), await run(dir, '--input', 'x=1')]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error: ${join(dir, 'api.yaml')}#/paths/~1things/get/parameters/0: $ref "${other.origin}/x#/Limit" is refused: 127.0.0.1 is a loopback address, and a description's $refs may only reach public addresses; pass --tool-allow-ref-host 127.0.0.1 if you trust it\n`,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(other.hits.length).toBe(before);
    const allowed = await run(dir, '--dry-run', '--tool-allow-ref-host', '127.0.0.1');
    expect(allowed.stderr).not.toContain('error');
    expect(allowed.code).toBe(0);
    expect(other.hits.slice(before).map((hit) => hit.url)).toEqual(['/x']);
  });

  it('holds for tool api ops too, whose --tool-allow-ref-host lifts it', async () => {
    bodies[`${other.origin}/ops`] = 'Limit: {name: limit, in: query}\n';
    const dir = await project('ops-to-loopback', './api.yaml', { 'api.yaml': description(api.origin, '', `[{$ref: '${other.origin}/ops#/Limit'}]`) });
    const ops = (...flags: string[]) => runTool(['api', 'ops', 'loopy', ...flags], { cwd: dir, env: env() });
    expect((await runTool(['api', 'add', 'loopy', api.origin, '--spec', join(dir, 'api.yaml')], { cwd: dir, env: env() })).code).toBe(0);
    const before = other.hits.length;
    const refused = await ops();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('127.0.0.1 is a loopback address');
    expect(refused.stderr).toContain('pass --tool-allow-ref-host 127.0.0.1');
    expect(other.hits.length).toBe(before);
    const allowed = await ops('--tool-allow-ref-host', '127.0.0.1');
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(other.hits.length).toBe(before + 1);
  });

  it('refuses localhost and a decimal spelling of 127.0.0.1 (2130706433) the same way', async () => {
    const before = other.hits.length;
    for (const [name, host, shown] of [
      ['local-to-localhost', `localhost:${other.port}`, 'localhost names this machine'],
      ['local-to-decimal', `2130706433:${other.port}`, '127.0.0.1 is a loopback address'],
    ] as const) {
      const dir = await project(name, './api.yaml', { 'api.yaml': description(api.origin, '', `[{$ref: 'http://${host}/x#/Limit'}]`) });
      const result = await run(dir, '--dry-run');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`is refused: ${shown}, and a description's $refs may only reach public addresses`);
    }
    expect(other.hits.length).toBe(before);
  });

  it("lets a local description's $ref reach the origin of a remote source the document names, whichever is listed first", async () => {
    bodies[`${other.origin}/named/api.yaml`] = description(api.origin);
    bodies[`${other.origin}/named/common.yaml`] = 'Limit: {name: limit, in: query}\n';
    const dir = await project('local-to-named-origin', './api.yaml', { 'api.yaml': description(api.origin, '', `[{$ref: '${other.origin}/named/common.yaml#/Limit'}]`) });
    const flow = `arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions:\n  - {name: api, url: './api.yaml'}\n  - {name: named, url: '${other.origin}/named/api.yaml'}\nworkflows:\n  - workflowId: w\n    steps:\n      - {stepId: s, operationId: $sourceDescriptions.api.a}\n`;
    await writeFile(join(dir, 'flow.arazzo.yaml'), flow);
    const result = await run(dir, '--dry-run');
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
  });

  it('fetches a remote source description on a loopback address, and its own $refs, as before', async () => {
    bodies[`${other.origin}/own/api.yaml`] = description(api.origin, '', "[{$ref: 'common.yaml#/Limit'}]");
    bodies[`${other.origin}/own/common.yaml`] = 'Limit: {name: limit, in: query}\n';
    const dir = await project('remote-loopback', `${other.origin}/own/api.yaml`);
    const result = await run(dir, '--dry-run');
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
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

describe('the project folder (the nearest folder with .git or tool.config.yaml)', () => {
  /** repo/workflows/flow.arazzo.yaml naming ../openapi/api.yaml, with `marker` in repo/. */
  async function repository(name: string, marker: '.git' | 'tool.config.yaml', sourceUrl = '../openapi/api.yaml'): Promise<string> {
    const repo = join(root, name);
    await mkdir(join(repo, 'openapi', '.private'), { recursive: true });
    if (marker === '.git') await mkdir(join(repo, '.git'), { recursive: true });
    else await writeFile(join(repo, 'tool.config.yaml'), '{}\n');
    await project(join(name, 'workflows'), sourceUrl);
    await writeFile(join(repo, 'openapi', 'api.yaml'), description(api.origin));
    await writeFile(join(repo, 'openapi', '.private', 'api.yaml'), description(api.origin));
    return repo;
  }
  const at = (cwd: string, command: 'run' | 'validate' | 'graph', file: string, ...flags: string[]) =>
    runTool(['arazzo', command, file, ...(command === 'run' ? ['--dry-run'] : []), ...flags], { cwd, env: env() });

  it('lets run, validate and graph read a sibling folder of the project with no flag, from the root and from workflows/', async () => {
    for (const marker of ['.git', 'tool.config.yaml'] as const) {
      const repo = await repository(`project-${marker}`, marker);
      for (const [cwd, file] of [[repo, join('workflows', 'flow.arazzo.yaml')], [join(repo, 'workflows'), 'flow.arazzo.yaml']] as const) {
        for (const command of ['run', 'validate', 'graph'] as const) {
          const result = await at(cwd, command, file);
          expect({ marker, cwd, command, code: result.code, stderr: result.stderr.includes('refusing') ? result.stderr : '' }).toEqual({ marker, cwd, command, code: 0, stderr: '' });
        }
      }
    }
  });

  it('records and replays a run from the root and from workflows/ with no flag', async () => {
    const repo = await repository('project-replay', '.git');
    const recorded = await runTool(['arazzo', 'run', join('workflows', 'flow.arazzo.yaml'), '--har', 'run.har'], { cwd: repo, env: env() });
    expect(recorded.code).toBe(0);
    for (const [cwd, file, har] of [[repo, join('workflows', 'flow.arazzo.yaml'), 'run.har'], [join(repo, 'workflows'), 'flow.arazzo.yaml', join('..', 'run.har')]] as const) {
      const replayed = await runTool(['arazzo', 'replay', file, '--from', har], { cwd, env: env() });
      expect({ code: replayed.code, refused: replayed.stderr.includes('refusing') }).toEqual({ code: 0, refused: false });
    }
  });

  it('names the run\'s runner and read flags in the hint after an invalid document, so the validate it suggests sees what the run saw', async () => {
    const repo = await repository('project-hint', '.git');
    const broken = join(repo, 'workflows', 'broken.arazzo.yaml');
    await writeFile(broken, `arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions:\n  - {name: api, url: ../openapi/api.yaml}\nworkflows:\n  - workflowId: w\n    steps:\n      - {stepId: s, operationId: a, onSuccess: [{name: g, type: goto, stepId: nowhere}]}\n`);
    const fine = await runTool(['arazzo', 'run', 'broken.arazzo.yaml', '--tool-runner', 'v2', '--tool-allow-read', '../openapi'], { cwd: join(repo, 'workflows'), env: env() });
    expect(fine.code).toBe(10);
    expect(fine.stderr).toContain('Run `tool arazzo validate broken.arazzo.yaml --tool-runner v2 --tool-allow-read ../openapi` for details.');
  });

  it('graph takes the read flags of run and validate, so one set of flags works for every arazzo command', async () => {
    const repo = await repository('project-flags', '.git');
    const flags = ['--tool-allow-read', '../openapi', '--tool-allow-ref-host', 'specs.example.com'];
    for (const command of ['run', 'validate', 'graph'] as const) expect((await at(join(repo, 'workflows'), command, 'flow.arazzo.yaml', ...flags)).code).toBe(0);
  });

  it('does not open the same document copied alone elsewhere: it reads only its own folder', async () => {
    await repository('project-copied', '.git');
    const alone = join(root, 'downloads', 'workflows');
    await mkdir(alone, { recursive: true });
    await mkdir(join(root, 'downloads', 'openapi'), { recursive: true });
    await writeFile(join(root, 'downloads', 'openapi', 'api.yaml'), description(api.origin));
    await project(join('downloads', 'workflows'), '../openapi/api.yaml');
    const result = await at(alone, 'validate', 'flow.arazzo.yaml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`outside the allowed folder (files must stay inside ${alone}); pass --tool-allow-read ../openapi if you trust it`);
  });

  it('keeps hidden folders of the project closed unless named with --tool-allow-read', async () => {
    const repo = await repository('project-hidden', '.git', '../openapi/.private/api.yaml');
    const workflows = join(repo, 'workflows');
    const refused = await at(workflows, 'validate', 'flow.arazzo.yaml');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`inside the hidden folder ${join(repo, 'openapi', '.private')} of the project ${repo}, which descriptions do not read; pass --tool-allow-read ../openapi/.private if you trust it`);
    expect((await at(workflows, 'validate', 'flow.arazzo.yaml', '--tool-allow-read', '../openapi/.private')).code).toBe(0);
  });

  it('refuses a symlink out of the project', async () => {
    const repo = await repository('project-link', '.git', '../openapi/linked.yaml');
    await mkdir(join(root, 'outside'), { recursive: true });
    await writeFile(join(root, 'outside', 'api.yaml'), description(api.origin));
    await symlink(join(root, 'outside', 'api.yaml'), join(repo, 'openapi', 'linked.yaml'));
    const result = await at(join(repo, 'workflows'), 'validate', 'flow.arazzo.yaml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`it resolves to ${join(root, 'outside', 'api.yaml')}, outside the allowed folder (files must stay inside ${join(repo, 'workflows')} or the project ${repo})`);
  });
});
