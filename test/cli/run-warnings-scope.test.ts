/**
 * What a run warns about (issue 24): not the warnings of workflows it does not reach, and not a
 * FORWARD_STEP_REFERENCE a goto makes right (a pagination step reading its own previous page).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { runTool } from './run-tool.js';

let dir: string;
let api: TestServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tool-cli-warn-'));
  api = await startServer((hit, res) => sendJson(res, 200, hit.url.includes('cursor=2') ? { items: [2], next: null } : { items: [1], next: 2 }));
  await writeFile(join(dir, 'api.yaml'), `openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers:\n  - url: '${api.origin}'\npaths:\n  /items:\n    get:\n      operationId: list\n      parameters: [{name: cursor, in: query, schema: {type: integer}}]\n      responses: {'200': {description: ok}}\n`);
  await writeFile(
    join(dir, 'flow.arazzo.yaml'),
    [
      'arazzo: 1.0.1',
      "info: {title: t, version: '1'}",
      'sourceDescriptions: [{name: api, url: ./api.yaml}]',
      'workflows:',
      '  - workflowId: pages',
      '    steps:',
      '      - stepId: page',
      '        operationId: list',
      '        parameters: [{name: cursor, in: query, value: $steps.page.outputs.next}]',
      '        outputs: {next: $response.body#/next}',
      '        onSuccess:',
      '          - {name: more, type: goto, stepId: page, criteria: [{condition: $response.body#/next != null}]}',
      '  - workflowId: other',
      '    steps:',
      '      - stepId: first',
      '        operationId: list',
      '        parameters: [{name: cursor, in: query, value: $steps.later.outputs.next}]',
      '      - stepId: later',
      '        operationId: list',
      '        outputs: {next: $response.body#/next}',
    ].join('\n') + '\n',
  );
});
afterAll(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('arazzo run warnings', () => {
  it('does not call a self-reading pagination step a forward reference, and leaves out the warnings of workflows it does not run', async () => {
    const result = await runTool(['arazzo', 'run', 'flow.arazzo.yaml', '--workflow', 'pages'], { cwd: dir, env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') } });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('FORWARD_STEP_REFERENCE');
    expect(api.hits.map((hit) => hit.url)).toEqual(['/items', '/items?cursor=2']);
  });

  it('still warns about a real forward reference, in validate and in a run of that workflow', async () => {
    const validated = await runTool(['arazzo', 'validate', 'flow.arazzo.yaml'], { cwd: dir });
    expect(validated.stdout).toContain('FORWARD_STEP_REFERENCE $steps.later.outputs.next refers to step "later", which comes later');
    expect(validated.stdout.match(/FORWARD_STEP_REFERENCE/g)).toHaveLength(1);
    const ran = await runTool(['arazzo', 'run', 'flow.arazzo.yaml', '--workflow', 'other', '--dry-run'], { cwd: dir, env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') } });
    expect(ran.stderr).toContain('FORWARD_STEP_REFERENCE');
  });
});
