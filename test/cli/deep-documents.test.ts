/**
 * Arazzo documents with very long conditions or very deep nodes (an inputs schema, a payload):
 * long chains run, over-deep documents are refused as invalid (exit 10) with where and the limit,
 * and nothing reaches an internal error (exit 70).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startScriptedServer, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runTool } from './run-tool.js';

/** A JSON schema `depth` object schemas deep, as flow text. */
function deepSchema(depth: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
}

/** `{"a":{"a":…{"a":1}…}}`, `depth` objects deep. */
function deepPayload(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer();
  ws = makeWorkspace('tool-deep-documents-');
  ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

const env = () => ({ XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` });
const tool = (argv: string[]) => runTool(argv, { cwd: ws.dir, env: env() });

describe('a success criterion with 10,000 "&&" operands', () => {
  beforeAll(() => {
    ws.fixture('long-condition.arazzo.yaml', { CONDITION: Array.from({ length: 10_000 }, () => '$statusCode == 200').join(' && ') });
  });

  it('validates', async () => {
    const result = await tool(['arazzo', 'validate', 'long-condition.arazzo.yaml']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('runs, and holds', async () => {
    server.setRoutes({ 'GET /a': { body: { ok: true } } });
    const result = await tool(['arazzo', 'run', 'long-condition.arazzo.yaml', '--quiet']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).steps).toEqual([{ stepId: 'read', status: 200, dryRun: false, outputs: {} }]);
  });
});

describe('a document nested deeper than 256 levels', () => {
  it.each([
    ['a 3,000-deep inputs schema', 'schema-3000.arazzo.yaml', { SCHEMA: deepSchema(3_000), PAYLOAD: '{}' }],
    ['a 3,000-deep payload', 'payload-3000.arazzo.yaml', { SCHEMA: '{}', PAYLOAD: deepPayload(3_000) }],
    ['a 300-deep payload', 'payload-300.arazzo.yaml', { SCHEMA: '{}', PAYLOAD: deepPayload(300) }],
  ])('is refused as invalid (exit 10), with where and the limit: %s', async (_what, file, vars) => {
    ws.fixture('deep-document.arazzo.yaml', vars, file);
    for (const command of ['validate', 'run', 'graph']) {
      const result = await tool(['arazzo', command, file]);
      expect(result.code).toBe(10);
      const [first, second, third] = result.stderr.split('\n');
      expect(first).toMatch(new RegExp(`^error: ${file.replace('.', '\\.')}:(7|13):\\d+: the document nests deeper than 256 levels`));
      // The excerpt shows the place, not a line thousands of characters long.
      expect(second!.length).toBeLessThan(200);
      expect(third!.length).toBeLessThan(200);
      expect(result.stderr).not.toContain('internal error');
    }
  });

  it('is refused when the whole document is JSON', async () => {
    const doc = {
      arazzo: '1.0.1',
      info: { title: 'deep', version: '1' },
      sourceDescriptions: [{ name: 'api', url: './api.openapi.yaml', type: 'openapi' }],
      workflows: [{ workflowId: 'w', inputs: '@SCHEMA@', steps: [{ stepId: 's', operationId: 'getA' }] }],
    };
    ws.write('deep.arazzo.json', JSON.stringify(doc).replace('"@SCHEMA@"', deepSchema(3_000)));
    const result = await tool(['arazzo', 'validate', 'deep.arazzo.json']);
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/^error: deep\.arazzo\.json:1:\d+: the document nests deeper than 256 levels/);
  });
});

describe('a document just inside the limit', () => {
  it('sends a payload nested 240 levels deep', async () => {
    ws.fixture('deep-document.arazzo.yaml', { SCHEMA: deepSchema(100), PAYLOAD: deepPayload(240) }, 'payload-240.arazzo.yaml');
    server.setRoutes({ 'POST /items': { status: 201 } });
    const result = await tool(['arazzo', 'run', 'payload-240.arazzo.yaml', '--quiet']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    expect(server.hits[0]!.body).toBe(deepPayload(240));
  });
});
