/** A condition that does not parse is quoted in its finding, shortened when it is long. */
import { afterAll, expect, it } from '@jest/globals';
import { makeWorkspace } from '../e2e/helpers/workspace.js';
import { runTool } from './run-tool.js';

const ws = makeWorkspace('tool-long-condition-');
afterAll(() => ws.remove());

it('shortens a 10,000-character condition in the CONDITION_SYNTAX finding to its first 120 characters', async () => {
  const condition = `${'$statusCode == 200 && '.repeat(460)}(`;
  ws.write('api.yaml', 'openapi: 3.1.0\ninfo: {title: a, version: "1"}\nservers: [{url: "http://127.0.0.1:9"}]\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {"200": {description: ok}}\n');
  ws.write('flow.arazzo.yaml', `arazzo: 1.0.1\ninfo: {title: t, version: "1"}\nsourceDescriptions: [{name: api, url: ./api.yaml, type: openapi}]\nworkflows:\n  - workflowId: w\n    steps:\n      - stepId: s\n        operationId: getA\n        successCriteria: [{condition: '${condition}'}]\n`);
  const result = await runTool(['arazzo', 'validate', 'flow.arazzo.yaml'], { cwd: ws.dir, env: { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` } });
  expect(result.code).toBe(10);
  const line = result.stdout.split('\n').find((l) => l.includes('CONDITION_SYNTAX')) ?? result.stderr.split('\n').find((l) => l.includes('CONDITION_SYNTAX'));
  expect(line).toBeDefined();
  expect(line).toContain(`(${condition.length} characters)`);
  expect(line!.length).toBeLessThan(600);
});
