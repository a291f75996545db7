/**
 * The scenarios every transport of `tool mcp serve` passes (mcp-serve.test.ts over stdio,
 * mcp-serve-http.test.ts over Streamable HTTP): one describe block, given how to connect.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { REGISTRY_TOKEN, eventually, setUpWorkspace, startApi, type Api, type Connected, type Workspace } from './mcp-harness.js';

type Connect = (ws: Workspace, args?: readonly string[]) => Promise<Connected>;

interface TextResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const textOf = (result: unknown) => (result as TextResult).content.map((part) => part.text ?? '').join('\n');

/** Registers the shared scenarios in the current describe block. */
export function mcpScenarios(connect: Connect): void {
  let api: Api;
  let ws: Workspace;
  let server: Connected;

  beforeAll(async () => {
    api = await startApi();
    ws = await setUpWorkspace(api);
    server = await connect(ws);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await api?.close();
    ws?.remove();
  });

  beforeEach(() => {
    api.hits.length = 0;
    api.abandoned.length = 0;
  });

  it('lists the read-only workflows as tools with their schemas and annotations, and not the one that writes', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['getPet', 'slowThenMore']);
    const getPet = tools[0]!;
    expect(getPet.description).toMatch(/^Get a pet by id\n\nReads one pet and returns its name\.\n\nRuns Arazzo workflow "getPet" of flows\/shop\.arazzo\.yaml\. It sends GET \/pets\/\{id\}\.$/);
    // The component's $ref resolved, the default kept.
    expect(getPet.inputSchema).toEqual({
      type: 'object',
      properties: { petId: { type: 'integer', minimum: 1, description: "The pet's id" }, greeting: { type: 'string', default: 'hello' } },
      required: ['petId'],
    });
    expect(Object.keys((getPet.outputSchema as { properties: object }).properties)).toEqual(['name', 'seenAuth', 'greeting']);
    expect(getPet.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // withToken requires a secret-named input, which the client may not give: not listed either.
    expect(server.stderr()).toMatch(/workflow "placeOrder" is not listed: it may write \(POST \/orders\); pass --allow-writes/);
    expect(server.stderr()).toMatch(/workflow "withToken" is not listed: it requires the secret-named input "apiToken"/);
  });

  it("runs a workflow with the registry's token and returns its outputs, never the token", async () => {
    const progress: Progress[] = [];
    const result = (await server.client.callTool({ name: 'getPet', arguments: { petId: 7 } }, undefined, { onprogress: (p) => progress.push(p) })) as TextResult;
    expect(api.hits).toEqual(['GET /pets/7']);
    expect(result.isError).toBeFalsy();
    // The API echoed the Authorization header into the body: the output shows it masked.
    expect(result.structuredContent).toEqual({ name: 'Rex', seenAuth: '***', greeting: 'hello' });
    expect(textOf(result)).toMatch(/^Workflow "getPet" succeeded\./);
    expect(JSON.stringify(result)).not.toContain(REGISTRY_TOKEN);
    await eventually(() => progress.length > 0);
    expect(progress[0]).toMatchObject({ progress: 1, message: 'step "readPet": 200' });
    expect(JSON.stringify(progress)).not.toContain(REGISTRY_TOKEN);
    expect(server.stderr()).not.toContain(REGISTRY_TOKEN);
  });

  it('returns a failed run as an error result with the failing step and the explanation run prints', async () => {
    const result = (await server.client.callTool({ name: 'getPet', arguments: { petId: 404 } })) as TextResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^Workflow "getPet" failed at step "readPet" \(STEP_FAILED\): HTTP 404: success criterion `\$statusCode == 200` does not hold/);
    expect(text).toContain('< 404 Not Found');
    expect(text).toContain('"seenAuth":"***"');
    expect(text).not.toContain(REGISTRY_TOKEN);
    expect(server.stderr()).not.toContain(REGISTRY_TOKEN);
  });

  it('refuses bad arguments with a schema error naming the field, and sends nothing', async () => {
    const wrongType = (await server.client.callTool({ name: 'getPet', arguments: { petId: 'seven' } })) as TextResult;
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toBe('Invalid arguments: input "petId" must be integer (given: "seven"); nothing was sent');
    const missing = (await server.client.callTool({ name: 'getPet', arguments: {} })) as TextResult;
    expect(textOf(missing)).toMatch(/^Invalid arguments: input "petId" is required by workflow "getPet"/);
    const unknown = (await server.client.callTool({ name: 'getPet', arguments: { petId: 1, colour: 'red' } })) as TextResult;
    expect(textOf(unknown)).toBe('Invalid arguments: workflow "getPet" has no input "colour" (its inputs: petId, greeting); nothing was sent.');
    expect(api.hits).toEqual([]);
  });

  it('aborts the run when the client cancels the call: no response, no further request', async () => {
    const cancel = new AbortController();
    const call = server.client.callTool({ name: 'slowThenMore', arguments: {} }, undefined, { signal: cancel.signal }).then(
      () => 'answered',
      (error: Error) => `rejected: ${error.message}`,
    );
    await eventually(() => api.hits.includes('GET /slow'));
    cancel.abort();
    expect(await call).toMatch(/^rejected: .*abort/i);
    // The run aborted the request in flight, and sent nothing more.
    await eventually(() => api.abandoned.includes('GET /slow'));
    await eventually(() => /slowThenMore: interrupted; nothing more was sent/.test(server.stderr()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.hits).toEqual(['GET /slow']);
    // No response to the cancelled request reached the client (it would be an unknown message id).
    expect(server.errors).toEqual([]);
    // The server still answers.
    expect((await server.client.listTools()).tools).toHaveLength(2);
  });

  it('lists the write workflow with --allow-writes, marked destructive, and runs it', async () => {
    const writes = await connect(ws, ['--allow-writes', '--workflow', 'place*']);
    try {
      const { tools } = await writes.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['placeOrder']);
      expect(tools[0]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      const result = (await writes.client.callTool({ name: 'placeOrder', arguments: {} })) as TextResult;
      expect(result.structuredContent).toEqual({ orderId: 'o-1' });
      expect(api.hits).toEqual(['POST /orders']);
    } finally {
      await writes.close();
    }
  }, 60_000);
}
