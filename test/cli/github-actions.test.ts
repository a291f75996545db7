/**
 * GITHUB_ACTIONS=true: `::add-mask::` for the run's secrets before any other line, annotations on
 * stderr (never on stdout, which stays the record or the findings) with the document's file, line
 * and column, and a Markdown summary appended to $GITHUB_STEP_SUMMARY.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const SECRET = 'tok-Secret-4b2c';

async function run(fixture: string, args: string[], env: Record<string, string>) {
  const file = h.ws.fixture(fixture, { BASE_URL: h.server.url });
  return runInWorkspace(['arazzo', 'run', file, '--tool-retry', '0', ...args], { cwd: h.ws.dir, env: { GITHUB_ACTIONS: 'true', ...env } });
}

describe('arazzo run in GitHub Actions', () => {
  it('masks the --input-env values first, annotates the failed step at its line, and appends a summary per run', async () => {
    writeFileSync(join(h.ws.dir, 'summary.md'), '# earlier step\n');
    h.server.setRoutes({ 'GET /a': { status: 500, body: { echo: `you sent ${SECRET}`, note: '| *bold* <b>' } } });
    const env = { TOKEN: SECRET, GITHUB_STEP_SUMMARY: 'summary.md' };
    const first = await run('transport-get.arazzo.yaml', ['--input-env', 'token=TOKEN'], env);
    expect(first.code).toBe(1);
    expect(first.stderr.startsWith(`::add-mask::${SECRET}\n::stop-commands::`)).toBe(true);
    expect(first.stderr).toMatch(/^::error file=transport-get\.arazzo\.yaml,line=8,col=\d+,title=tool arazzo run%3A STEP_FAILED::workflow "oneGet" failed at step "fetch": HTTP 500/m);
    expect(first.stdout).not.toContain('::');
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'failed' });

    h.server.setRoutes({ 'GET /a': { body: { ok: true } } });
    const second = await run('transport-get.arazzo.yaml', ['--input-env', 'token=TOKEN'], env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('::error');

    const summary = readFileSync(join(h.ws.dir, 'summary.md'), 'utf8');
    expect(summary.startsWith('# earlier step\n')).toBe(true);
    expect(summary).toContain('### ❌ tool arazzo run: workflow oneGet failed');
    expect(summary).toContain('### ✅ tool arazzo run: workflow oneGet succeeded');
    expect(summary).toMatch(/\| 1 \| fetch \| 500 \| failed: HTTP 500/);
    expect(summary).toMatch(/\| 1 \| fetch \| 200 \| passed \| \d+ ms \|/);
    expect(summary).toContain('**STEP\\_FAILED**');
    expect(summary).not.toContain(SECRET);
  });

  it('stops command processing around everything but its own commands, so a server\'s echoed ::error:: stays text, and resumes it at the end', async () => {
    h.server.setRoutes({ 'GET /a': { status: 500, body: 'line one\n::error::forged by the server\n' } });
    const result = await run('transport-get.arazzo.yaml', ['--verbose'], {});
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    const token = /^::stop-commands::([0-9a-f]{32})$/.exec(lines.find((line) => line.startsWith('::stop-commands::')) ?? '')?.[1];
    expect(token).toBeDefined();
    // Whether processing is on at each line: off after ::stop-commands::<token>, on after ::<token>::.
    let on = true;
    const forged: boolean[] = [];
    const ours: boolean[] = [];
    for (const line of lines) {
      if (line === `::stop-commands::${token}`) on = false;
      else if (line === `::${token}::`) on = true;
      else if (line.includes('forged by the server')) forged.push(on);
      else if (line.startsWith('::error ')) ours.push(on);
    }
    expect(forged.length).toBeGreaterThan(0);
    expect(forged.every((state) => !state)).toBe(true);
    expect(ours).toEqual([true]);
    expect(on).toBe(true);
  });

  it('annotates each finding of an invalid document with its file, line and column, and summarizes it', async () => {
    const result = await run('invalid-unknown-operation.arazzo.yaml', [], { GITHUB_STEP_SUMMARY: 'invalid.md' });
    expect(result.code).toBe(10);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^::error file=invalid-unknown-operation\.arazzo\.yaml,line=11,col=\d+,title=OPERATION_NOT_FOUND::.*getBee/m);
    const summary = readFileSync(join(h.ws.dir, 'invalid.md'), 'utf8');
    expect(summary).toContain('workflow typo invalid\\-document');
    expect(summary).toContain('OPERATION\\_NOT\\_FOUND');
  });

  it('annotates an early error, such as a missing required input', async () => {
    const result = await run('v2-inputs.arazzo.yaml', ['--tool-runner', 'v2'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^::error file=v2-inputs\.arazzo\.yaml,title=tool arazzo run%3A INVALID_INPUTS::input "petId" is required/m);
  });

  it('refuses a $GITHUB_STEP_SUMMARY that is not a regular file, with a warning and the run\'s own exit code', async () => {
    mkdirSync(join(h.ws.dir, 'a-folder'), { recursive: true });
    execFileSync('mkfifo', [join(h.ws.dir, 'a-fifo')]);
    h.server.setRoutes({ 'GET /a': { body: { ok: true } } });
    for (const target of ['a-folder', 'a-fifo']) {
      const result = await run('transport-get.arazzo.yaml', [], { GITHUB_STEP_SUMMARY: target });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`warning: .*GITHUB_STEP_SUMMARY ${target}.*no summary was written`));
    }
  });

  it('prints nothing for GitHub outside GitHub Actions', async () => {
    h.server.setRoutes({ 'GET /a': { status: 500 } });
    const file = h.ws.fixture('transport-get.arazzo.yaml', { BASE_URL: h.server.url });
    const result = await runInWorkspace(['arazzo', 'run', file, '--tool-retry', '0', '--input-env', 'token=TOKEN'], { cwd: h.ws.dir, env: { TOKEN: SECRET, GITHUB_STEP_SUMMARY: 'outside.md' } });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('::');
    expect(() => readFileSync(join(h.ws.dir, 'outside.md'))).toThrow();
  });
});

describe('arazzo validate in GitHub Actions', () => {
  it('annotates each finding on stderr and keeps stdout the findings', async () => {
    const file = h.ws.fixture('invalid-unknown-operation.arazzo.yaml', { BASE_URL: h.server.url });
    const plain = await runInWorkspace(['arazzo', 'validate', file], { cwd: h.ws.dir });
    const result = await runInWorkspace(['arazzo', 'validate', file], { cwd: h.ws.dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(10);
    expect(result.stdout).toBe(plain.stdout);
    expect(result.stderr).toMatch(/^::error file=invalid-unknown-operation\.arazzo\.yaml,line=11,col=\d+,title=OPERATION_NOT_FOUND::/m);
  });
});

describe('arazzo test in GitHub Actions', () => {
  it('registers every run\'s masks while command processing is on, under --concurrency too, and resumes processing at the end', async () => {
    h.server.setRoutes({ 'GET /slow': { status: 200, body: {}, delayMs: 200 } });
    mkdirSync(join(h.ws.dir, 'gha-suite'), { recursive: true });
    h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, 'gha-suite/api.openapi.yaml');
    writeFileSync(
      join(h.ws.dir, 'gha-suite/rows.arazzo.yaml'),
      'arazzo: 1.0.1\ninfo: { title: rows, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: ./api.openapi.yaml, type: openapi }\nworkflows:\n  - workflowId: w\n    inputs: { type: object, properties: { apiToken: { type: string } } }\n    steps:\n      - { stepId: get, operationId: getSlow, successCriteria: [ { condition: $statusCode == 200 } ] }\n',
    );
    const secrets = ['row-secret-one-1111', 'row-secret-two-2222', 'row-secret-three-3333', 'row-secret-four-4444'];
    writeFileSync(join(h.ws.dir, 'gha-suite/rows.csv'), ['apiToken', ...secrets].join('\n'));
    const result = await runInWorkspace(['arazzo', 'test', 'gha-suite/rows.arazzo.yaml', '--data', 'gha-suite/rows.csv', '--concurrency', '2'], { cwd: h.ws.dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(0);
    // The runner's command processing, line by line: ::stop-commands::<token> stops it, only ::<token>:: resumes it.
    let stoppedBy: string | undefined;
    const masked: string[] = [];
    for (const line of result.stderr.split('\n')) {
      if (stoppedBy !== undefined) {
        if (line === `::${stoppedBy}::`) stoppedBy = undefined;
        continue;
      }
      const stop = /^::stop-commands::(.+)$/.exec(line);
      if (stop !== null) stoppedBy = stop[1];
      else if (line.startsWith('::add-mask::')) masked.push(line.slice('::add-mask::'.length));
    }
    expect(masked.sort()).toEqual([...secrets].sort());
    expect(stoppedBy).toBeUndefined();
  });

  it('writes one step summary for the suite (counts, the first failures), not one per run, and annotates only the first ten failures', async () => {
    h.server.setRoutes({ 'GET /a': { status: 500, body: { error: 'down' } } });
    mkdirSync(join(h.ws.dir, 'gha-load'), { recursive: true });
    h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, 'gha-load/api.openapi.yaml');
    writeFileSync(
      join(h.ws.dir, 'gha-load/fails.arazzo.yaml'),
      'arazzo: 1.0.1\ninfo: { title: fails, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: ./api.openapi.yaml, type: openapi }\nworkflows:\n  - workflowId: failing\n    steps:\n      - { stepId: getA, operationId: getA, successCriteria: [ { condition: $statusCode == 200 } ] }\n',
    );
    const result = await runInWorkspace(['arazzo', 'test', 'gha-load/fails.arazzo.yaml', '--repeat', '30', '--concurrency', '4', '--tool-retry', '0'], { cwd: h.ws.dir, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: 'gha-load/summary.md' } });
    expect(result.code).toBe(1);
    expect(result.stderr.match(/^::error /gm)).toHaveLength(10);
    const markdown = readFileSync(join(h.ws.dir, 'gha-load/summary.md'), 'utf8');
    expect(markdown.match(/^### /gm)).toEqual(['### ']);
    expect(markdown).toMatch(/^### ❌ tool arazzo test: 0 passed, 30 failed, 0 skipped$/m);
    expect(markdown.match(/^\| gha\\-load\/fails\\\.arazzo\\\.yaml \| failing /gm)).toHaveLength(20);
    expect(markdown).toMatch(/… and 10 more failed runs/);
    // Under load, the figures per workflow.
    expect(markdown).toMatch(/\| Workflow \| Runs \| Errors \|/);
  });
});

