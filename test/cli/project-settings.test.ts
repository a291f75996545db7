/**
 * tool.config.yaml (docs/cli.md, Project settings): the project's defaults for the flags people
 * repeat, read from the document's project folder, checked whole (exit 2 naming file, line and
 * key), flags winning; a repository's settings cannot widen its own reach (folders and report
 * paths stay inside the project; its ref hosts never reach loopback or private addresses).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { runTool } from './run-tool.js';

let root: string;
let api: TestServer;
const refBodies: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tool-cli-settings-'));
  api = await startServer((hit, res) => {
    const body = refBodies[hit.url];
    if (body !== undefined) res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
    else sendJson(res, 200, { ok: true });
  });
});

afterAll(async () => {
  await api.close();
  await rm(root, { recursive: true, force: true });
});

const env = () => ({ XDG_CONFIG_HOME: join(root, 'config'), XDG_CACHE_HOME: join(root, 'cache') });

/** repo/.git, repo/openapi/api.yaml, repo/workflows/flow.arazzo.yaml (a nested call: v1 fails it, v2 runs it), repo/tool.config.yaml = `settings`. */
async function repository(name: string, settings: string | undefined, parameters = '[]'): Promise<string> {
  const repo = join(root, name);
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(repo, 'openapi'), { recursive: true });
  await mkdir(join(repo, 'workflows'), { recursive: true });
  await mkdir(join(repo, 'out'), { recursive: true });
  await writeFile(join(repo, 'openapi', 'api.yaml'), `openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers:\n  - url: '${api.origin}'\npaths:\n  /things:\n    get:\n      operationId: a\n      parameters: ${parameters}\n      responses: {'200': {description: ok}}\n`);
  const flow = `arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions:\n  - {name: api, url: ../openapi/api.yaml}\nworkflows:\n  - workflowId: main\n    steps:\n      - {stepId: call, workflowId: inner}\n  - workflowId: inner\n    steps:\n      - {stepId: Get Things, operationId: a}\n`;
  await writeFile(join(repo, 'workflows', 'flow.arazzo.yaml'), flow);
  if (settings !== undefined) await writeFile(join(repo, 'tool.config.yaml'), settings);
  return repo;
}
const tool = (cwd: string, ...argv: string[]) => runTool(argv, { cwd, env: env() });
const run = (repo: string, ...flags: string[]) => tool(join(repo, 'workflows'), 'arazzo', 'run', 'flow.arazzo.yaml', '--workflow', 'main', ...flags);

describe('tool.config.yaml', () => {
  it('gives the runner, max steps and report paths of a run; a flag wins', async () => {
    const repo = await repository('defaults', 'runner: v2\nmaxSteps: 50\nreports:\n  report: out/run.json\n  junit: out/junit.xml\n');
    const v2 = await run(repo);
    expect(v2.stderr).not.toContain('error');
    expect(v2.code).toBe(0);
    expect(JSON.parse(await readFile(join(repo, 'out', 'run.json'), 'utf8'))).toMatchObject({ workflowId: 'main' });
    expect(existsSync(join(repo, 'out', 'junit.xml'))).toBe(true);
    const v1 = await run(repo, '--tool-runner', 'v1');
    expect(v1.code).toBe(1);
    const capped = await run(repo, '--tool-max-steps', '1');
    expect(capped.code).not.toBe(0);
  });

  it('matches its JSON Schema: every key the reader takes is in docs/schemas/tool.config.schema.json', async () => {
    const schema = JSON.parse(await readFile(new URL('../../docs/schemas/tool.config.schema.json', import.meta.url), 'utf8')) as { properties: Record<string, unknown> };
    const { SETTING_KEYS } = await import('../../src/cli/project-settings.js');
    expect(Object.keys(schema.properties).sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('accepts {} and an empty file', async () => {
    for (const [name, text] of [['empty-map', '{}\n'], ['empty-file', '']] as const) {
      const repo = await repository(name, text);
      expect((await tool(join(repo, 'workflows'), 'arazzo', 'validate', 'flow.arazzo.yaml')).code).toBe(0);
    }
  });

  it('refuses an unknown key or a bad value with exit 2, naming the file, line and key, in every arazzo command', async () => {
    const repo = await repository('bad-key', 'runner: v2\nruner: v1\n');
    for (const command of ['validate', 'graph', 'run']) {
      const result = await tool(join(repo, 'workflows'), 'arazzo', command, 'flow.arazzo.yaml', ...(command === 'validate' ? [] : ['--workflow', 'main']));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('error: ../tool.config.yaml:2: unknown key "runer" (did you mean "runner"?)');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const twice = await repository('twice', 'retry: 1\nretry: 2\n');
    const duplicate = await run(twice);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('../tool.config.yaml:2: the key "retry" is given twice');
    const badValue = await repository('bad-value', 'timeout: soon\n');
    const result = await run(badValue);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('../tool.config.yaml:1: timeout must be a whole number from 1 to 3600');
  });

  it('refuses folders and report paths outside the project (exit 2): a cloned repository cannot widen its reach', async () => {
    await mkdir(join(root, 'outside'), { recursive: true });
    const folder = await repository('outside-read', 'allowRead: [../outside]\n');
    const read = await tool(join(folder, 'workflows'), 'arazzo', 'validate', 'flow.arazzo.yaml');
    expect(read.code).toBe(2);
    expect(read.stderr).toContain(`allowRead "../outside" is outside its project ${folder}`);
    const report = await repository('outside-report', 'reports: {report: ../outside/run.json}\n');
    const written = await run(report);
    expect(written.code).toBe(2);
    expect(written.stderr).toContain(`reports.report "../outside/run.json" is outside its project ${report}`);
    expect(existsSync(join(root, 'outside', 'run.json'))).toBe(false);
  });

  it('lets its allowRefHosts lift the same-origin rule only: a $ref to a loopback address still needs the flag', async () => {
    refBodies['/limit'] = 'Limit: {name: limit, in: query}\n';
    const host = new URL(api.origin).host;
    const repo = await repository('ref-hosts', `runner: v2\nallowRefHosts: ['${host}']\n`, `[{$ref: '${api.origin}/limit#/Limit'}]`);
    const refused = await run(repo, '--dry-run');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is a loopback address');
    expect((await run(repo, '--dry-run', '--tool-allow-ref-host', host)).code).toBe(0);
  });

  it('silences a reviewed warning by code, or by code and place', async () => {
    const noisy = await tool(join(await repository('noisy', '{}\n'), 'workflows'), 'arazzo', 'validate', 'flow.arazzo.yaml', '--tool-runner', 'v2');
    expect(noisy.stdout).toContain('UNUSUAL_ID');
    for (const [name, entry] of [['quiet-code', 'UNUSUAL_ID'], ['quiet-place', 'UNUSUAL_ID@workflows/flow.arazzo.yaml:11']] as const) {
      const repo = await repository(name, `runner: v2\nsilence: ['${entry}']\n`);
      const quiet = await tool(join(repo, 'workflows'), 'arazzo', 'validate', 'flow.arazzo.yaml');
      expect(quiet.code).toBe(0);
      expect(quiet.stdout).not.toContain('UNUSUAL_ID');
    }
    const elsewhere = await repository('quiet-elsewhere', `runner: v2\nsilence: ['UNUSUAL_ID@workflows/other.arazzo.yaml']\n`);
    expect((await tool(join(elsewhere, 'workflows'), 'arazzo', 'validate', 'flow.arazzo.yaml')).stdout).toContain('UNUSUAL_ID');
  });

  it('refuses bind under the v1 runner (exit 2)', async () => {
    const repo = await repository('bind-v1', 'bind: {api: shop}\n');
    const result = await run(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('../tool.config.yaml:1: bind needs the v2 runner');
  });
});

describe('tool config show', () => {
  it('prints each setting, its value and where it came from', async () => {
    const repo = await repository('show', 'runner: v2\n\ntimeout: 5\nallowRead: [openapi]\n');
    const result = await tool(join(repo, 'workflows'), 'config', 'show');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('project: ..');
    expect(result.stdout).toContain('settings: ../tool.config.yaml');
    expect(result.stdout).toMatch(/runner\s+"v2"\s+\(\.\.\/tool\.config\.yaml:1\)/);
    expect(result.stdout).toMatch(/timeout\s+5\s+\(\.\.\/tool\.config\.yaml:3\)/);
    expect(result.stdout).toMatch(/allowRead\s+\["\.\.\/openapi"\]/);
    expect(result.stdout).toMatch(/retry\s+2\s+\(default\)/);
    const json = JSON.parse((await tool(repo, 'config', 'show', 'workflows/flow.arazzo.yaml', '--output', 'json')).stdout);
    expect(json.settings.timeout).toEqual({ value: 5, from: 'tool.config.yaml:3' });
  });

  it('says when there is no project', async () => {
    const alone = join(root, 'alone');
    await mkdir(alone, { recursive: true });
    const result = await tool(alone, 'config', 'show');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('project: none');
  });
});
