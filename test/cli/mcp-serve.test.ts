/**
 * `tool mcp serve` over stdio, as a desktop agent runs it: the SDK's Client spawns the real binary
 * (bin/tool.js, built first) and talks to it over its stdin and stdout, against a local API whose
 * bearer token is in the registry. The scenarios are in mcp-scenarios.ts; stdio's own are here.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../e2e/helpers/build.js';
import { connectStdio, REGISTRY_TOKEN, setUpWorkspace, startApi, type Api, type Workspace } from './mcp-harness.js';
import { mcpScenarios } from './mcp-scenarios.js';

describe('tool mcp serve over stdio', () => {
  mcpScenarios(connectStdio);
});

describe('tool mcp serve: secret inputs and resources', () => {
  let api: Api;
  let ws: Workspace;

  beforeAll(async () => {
    api = await startApi();
    ws = await setUpWorkspace(api);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    ws?.remove();
  });

  it('takes a secret-named input from --input-env, leaves it out of the schema and refuses it from the client', async () => {
    const server = await connectStdio({ ...ws, env: { ...ws.env, SHOP_TOKEN: 'env-secret-value-0042' } }, ['--workflow', 'withToken', '--input-env', 'apiToken=SHOP_TOKEN']);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['withToken']);
      expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: {} });
      const refused = await server.client.callTool({ name: 'withToken', arguments: { apiToken: 'from-the-model' } });
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: input "apiToken" cannot be given: the server gives it; nothing was sent.' }] });
      const ran = await server.client.callTool({ name: 'withToken', arguments: {} });
      expect(ran.isError).toBeFalsy();
      // The workflow outputs its secret input: the result shows it masked.
      expect(ran.structuredContent).toEqual({ echo: '***' });
      expect(JSON.stringify(ran)).not.toContain('env-secret-value-0042');
      expect(server.stderr()).not.toContain('env-secret-value-0042');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('lists a workflow with a secret-named input under --allow-secret-inputs', async () => {
    const server = await connectStdio(ws, ['--workflow', 'withToken', '--allow-secret-inputs']);
    try {
      const { tools } = await server.client.listTools();
      expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { apiToken: { type: 'string' } }, required: ['apiToken'] });
      const ran = await server.client.callTool({ name: 'withToken', arguments: { apiToken: 'model-given-secret-77' } });
      expect(ran.structuredContent).toEqual({ echo: '***' });
    } finally {
      await server.close();
    }
  }, 60_000);

  it('keeps the registry\'s token and a client-given secret out of the log in GitHub Actions too (no ::add-mask:: line is logged)', async () => {
    const server = await connectStdio({ ...ws, env: { ...ws.env, GITHUB_ACTIONS: 'true' } }, ['--allow-secret-inputs']);
    try {
      const read = await server.client.callTool({ name: 'getPet', arguments: { petId: 7 } });
      expect(read.isError).toBeFalsy();
      const ran = await server.client.callTool({ name: 'withToken', arguments: { apiToken: 'model-given-secret-78' } });
      expect(ran.isError).toBeFalsy();
      expect(server.stderr()).not.toContain(REGISTRY_TOKEN);
      expect(server.stderr()).not.toContain('model-given-secret-78');
      expect(server.stderr()).not.toContain('::add-mask::');
      expect(server.stderr()).not.toContain('::stop-commands::');
    } finally {
      await server.close();
    }
  }, 60_000);

  it("prefixes workflowIds two documents share with each document's name, and applies each document's tool.config.yaml", async () => {
    cpSync(join(REPO_ROOT, 'test', 'fixtures', 'mcp-project'), join(ws.dir, 'project'), { recursive: true });
    cpSync(join(ws.dir, 'flows', 'shop.openapi.yaml'), join(ws.dir, 'project', 'shop.openapi.yaml'));
    const server = await connectStdio(ws, ['project']);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['shop_getPet', 'slowThenMore', 'pets_getPet', 'slowOne']);
      // project/tool.config.yaml: timeout 1 s, no transport retry. The held request times out.
      const started = Date.now();
      const result = await server.client.callTool({ name: 'slowOne', arguments: {} });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.isError).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^Workflow "slowOne" failed at step "slow" .*time/i);
      expect(api.hits.filter((hit) => hit === 'GET /slow')).toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('exposes each document as a resource, and the chart of each workflow as SVG', async () => {
    const server = await connectStdio(ws);
    try {
      const { resources } = await server.client.listResources();
      expect(resources.map((r) => [r.name, r.mimeType])).toEqual([
        ['flows/shop.arazzo.yaml', 'application/yaml'],
        ['getPet.svg', 'image/svg+xml'],
        ['slowThenMore.svg', 'image/svg+xml'],
      ]);
      const doc = await server.client.readResource({ uri: resources[0]!.uri });
      expect((doc.contents[0] as { text: string }).text).toContain('workflowId: getPet');
      const chart = await server.client.readResource({ uri: 'tool://graph/getPet.svg' });
      expect((chart.contents[0] as { text: string }).text).toMatch(/^<\?xml|<svg/);
      expect((chart.contents[0] as { text: string }).text).toContain('readPet');
      await expect(server.client.readResource({ uri: 'tool://graph/nope.svg' })).rejects.toThrow(/no resource/);
    } finally {
      await server.close();
    }
  }, 60_000);
});
