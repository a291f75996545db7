/** The pure parts of `tool mcp serve`: tool names, the --http address, what a workflow sends, the schemas. */
import { describe, expect, it } from '@jest/globals';
import type { ArazzoDocument, Step, Workflow } from '../../src/arazzo/model.js';
import type { BoundSource } from '../../src/plan/bind-sources.js';
import { isLoopback, parseHttpAddress } from '../../src/cli/mcp/http-address.js';
import { readsOnly, workflowSends } from '../../src/cli/mcp/step-methods.js';
import { documentName, toolNames } from '../../src/cli/mcp/tool-names.js';
import { inputSchemaOf, outputSchemaOf } from '../../src/cli/mcp/tool-schemas.js';
import type { McpTool } from '../../src/cli/mcp/catalogue.js';

const step = (fields: Partial<Step>): Step => ({ pointer: '', parameters: [], successCriteria: [], outputs: {}, dependsOn: [], ...fields }) as unknown as Step;
const workflow = (fields: Partial<Workflow>): Workflow => ({ pointer: '', dependsOn: [], steps: [], outputs: {}, parameters: [], ...fields }) as unknown as Workflow;
const documentOf = (workflows: Workflow[], inputs: Record<string, unknown> = {}): ArazzoDocument =>
  ({ pointer: '', sourceDescriptions: [], workflows, components: { pointer: '', inputs, parameters: {}, successActions: {}, failureActions: {} } }) as unknown as ArazzoDocument;

describe('tool names', () => {
  it('keeps a valid workflowId, replaces what MCP names do not take, and cuts at 64 characters', () => {
    expect(toolNames([{ workflowId: 'getPet', file: 'a.arazzo.yaml' }, { workflowId: 'buy pet/now', file: 'a.arazzo.yaml' }, { workflowId: 'x'.repeat(70), file: 'a.arazzo.yaml' }])).toEqual(['getPet', 'buy_pet_now', 'x'.repeat(64)]);
  });

  it("prefixes ids two documents share with each document's name, and numbers what still clashes", () => {
    const names = toolNames([
      { workflowId: 'login', file: 'flows/shop.arazzo.yaml' },
      { workflowId: 'login', file: 'other/billing.arazzo.json' },
      { workflowId: 'list', file: 'flows/shop.arazzo.yaml' },
      { workflowId: 'shop_login', file: 'x.arazzo.yaml' },
    ]);
    expect(names).toEqual(['shop_login', 'billing_login', 'list', 'shop_login_2']);
    expect(documentName('dir/orders.v2.arazzo.yml')).toBe('orders.v2');
  });
});

describe('the --http address', () => {
  it('listens on 127.0.0.1 for a bare port, and takes a loopback host', () => {
    expect(parseHttpAddress('8765', undefined)).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseHttpAddress('[::1]:0', undefined)).toEqual({ host: '::1', port: 0 });
    expect(parseHttpAddress('localhost:80', undefined)).toEqual({ host: 'localhost', port: 80 });
    expect([isLoopback('127.8.0.1'), isLoopback('10.0.0.1'), isLoopback('example.com')]).toEqual([true, false, false]);
  });

  it('takes another host only when --http-host names it', () => {
    expect(() => parseHttpAddress('0.0.0.0:80', undefined)).toThrow(/0\.0\.0\.0 is not a loopback address/);
    expect(parseHttpAddress('80', '0.0.0.0')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseHttpAddress('0.0.0.0:80', '0.0.0.0')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(() => parseHttpAddress('10.0.0.1:80', '0.0.0.0')).toThrow(/names host 10\.0\.0\.1 and --http-host names 0\.0\.0\.0/);
    expect(() => parseHttpAddress('70000', undefined)).toThrow(/is not a port or host:port/);
  });
});

describe('what a workflow sends', () => {
  const operation = (operationId: string, method: string, path: string) => [operationId, { operationId, method, path }] as const;
  const sources = [{ name: 'shop', url: './shop.yaml', reason: 'synthetic', description: { location: '', version: '3.0.3', servers: [], operations: new Map([operation('getPet', 'get', '/pets/{id}'), operation('buy', 'post', '/orders')]) } }] as unknown as BoundSource[];

  it('is read-only when every step, and every workflow it calls or depends on, uses GET, HEAD or OPTIONS', () => {
    const inner = workflow({ workflowId: 'inner', steps: [step({ stepId: 'p', operationPath: '{$sourceDescriptions.shop.url}#/paths/~1pets/head' })] });
    const outer = workflow({ workflowId: 'outer', dependsOn: ['inner'], steps: [step({ stepId: 'a', operationId: 'getPet' }), step({ stepId: 'b', workflowId: 'inner' })] });
    const sends = workflowSends(documentOf([outer, inner]), outer, sources);
    expect(sends).toEqual({ requests: ['HEAD /pets', 'GET /pets/{id}'], unknown: [] });
    expect(readsOnly(sends)).toBe(true);
  });

  it('counts a write in a called workflow, and a step whose method cannot be told, as writes', () => {
    const buyer = workflow({ workflowId: 'buyer', steps: [step({ stepId: 'b', operationId: '$sourceDescriptions.shop.buy' })] });
    const caller = workflow({ workflowId: 'caller', steps: [step({ stepId: 'a', workflowId: 'buyer' })] });
    expect(readsOnly(workflowSends(documentOf([caller, buyer]), caller, sources))).toBe(false);
    const lost = workflow({ workflowId: 'lost', steps: [step({ stepId: 'x', operationId: 'nowhere' }), step({ stepId: 'y', workflowId: '$sourceDescriptions.other.flow' })] });
    const sends = workflowSends(documentOf([lost]), lost, sources);
    expect(sends.unknown).toHaveLength(2);
    expect(sends.unknown[0]).toMatch(/^step "x": operationId "nowhere" is not in any source description/);
    expect(readsOnly(sends)).toBe(false);
  });
});

describe('tool schemas', () => {
  it('inlines the components an inputs schema refers to, keeps defaults, and leaves out hidden inputs', () => {
    const inputs = { type: 'object', required: ['id', 'token'], properties: { id: { $ref: '#/components/inputs/id' }, token: { type: 'string' }, page: { type: 'integer', default: 1 } } };
    const components = { id: { type: 'string', description: 'An id', allOf: [{ $ref: '#/components/inputs/loop' }] }, loop: { $ref: '#/components/inputs/loop' } };
    const w = workflow({ workflowId: 'w', inputs, outputs: { name: '$steps.a.outputs.name' } });
    expect(inputSchemaOf(w, documentOf([w], components), new Set(['token']))).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'An id', allOf: [{}] }, page: { type: 'integer', default: 1 } },
      required: ['id'],
    });
    expect(outputSchemaOf(w)).toEqual({ type: 'object', properties: { name: { description: 'from $steps.a.outputs.name' } } });
  });
});

describe('a call\'s arguments', () => {
  it('refuses a secret-named argument to a workflow that declares no inputs (it takes any other), unless --allow-secret-inputs', async () => {
    const { callTool } = await import('../../src/cli/mcp/call-tool.js');
    const { createLog } = await import('../../src/cli/mcp/log.js');
    const { PassThrough } = await import('node:stream');
    const tool = { name: 'w', workflowId: 'w', file: 'a.arazzo.yaml', declared: new Set(), refused: new Map(), secretsFromClient: false, options: { secretInputs: [] } } as unknown as McpTool;
    const deps = { cwd: '/', env: {}, log: createLog(new PassThrough(), 'error'), secrets: new Set<string>() };
    const result = await callTool(tool, { apiToken: 'from-the-model' }, { signal: new AbortController().signal }, deps);
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: input "apiToken" cannot be given: it is secret-named, and the server takes secrets only from its own --input-env (or --allow-secret-inputs); nothing was sent.' }] });
  });
});
