/**
 * v2 applies `requestBody.replacements` in order after the payload is evaluated: JSON targets are
 * RFC 6901 pointers with RFC 6902 `add` semantics, XML targets are XPaths whose nodes get new text.
 * A replacement that cannot be applied fails the step before anything is sent.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const ROUTES = { 'GET /ref': { body: { id: 7 } }, 'POST /orders': { status: 201, body: {} }, 'POST /orders.xml': { status: 201, body: {} } };
const V2 = ['--tool-runner', 'v2'];

beforeAll(() => {
  h.ws.fixture('v2-replacements.openapi.yaml', { BASE_URL: h.server.url });
});

function failureLine(stderr: string): string {
  return stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';
}

describe('requestBody.replacements under --tool-runner v2', () => {
  it('sets values in a JSON payload in order: replaced and created members, a replaced and an appended item, typed values', async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', [...V2, '--workflow', 'json', '--input', 'name=Rex', '--input', 'qty=2'], ROUTES);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['ref:200', 'create:201']);
    const sent = h.server.hits.find((hit) => hit.path === '/orders')!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toBe('{"customer":{"name":"Rex","vip":true},"lines":[{"sku":"a"},{"sku":"b"},{"sku":"z-Rex","qty":2}],"id":7,"a/b":[1,null]}');
  });

  it('reads a payload given as JSON text before adding to it', async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', [...V2, '--workflow', 'jsonText'], ROUTES);
    expect(result.code).toBe(0);
    expect(h.server.hits.map((hit) => hit.body)).toEqual(['{"status":"final"}']);
  });

  it('fails the step before sending when a target has no parent, naming the target', async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', [...V2, '--workflow', 'missingParent'], ROUTES);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['create:0']);
    expect(failureLine(result.stderr)).toContain('failed at step "create": the request could not be built: replacement target "/shipping/address": its parent /shipping does not exist');
    expect(h.server.hits).toHaveLength(0);
  });

  it("sets the text of the nodes an XPath selects in an XML payload (the operation's content type decides)", async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', [...V2, '--workflow', 'xml', '--input', 'name=Rex & Co'], ROUTES);
    expect(result.code).toBe(0);
    const [sent] = h.server.hits;
    expect(sent!.headers['content-type']).toBe('application/xml');
    expect(sent!.body).toBe('<order><customer>Rex &amp; Co</customer><status>3</status><line sku="z"/><line sku="z"/></order>');
  });

  it('fails the step before sending when an XPath selects nothing, naming the target', async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', [...V2, '--workflow', 'xmlSelectsNothing'], ROUTES);
    expect(result.code).toBe(1);
    expect(failureLine(result.stderr)).toContain('replacement target "/order/customer": it selects no node of the payload');
    expect(h.server.hits).toHaveLength(0);
  });

  it('shows the body with its replacements applied in a dry run', async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', [...V2, '--workflow', 'jsonText', '--dry-run'], ROUTES);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('{"status":"final"}');
    expect(h.server.hits).toHaveLength(0);
  });

  it('validates targets: a pointer without a leading "/" or an XPath that does not parse is an error (exit 10)', async () => {
    const file = h.ws.fixture('v2-replacements-bad.arazzo.yaml');
    const v2 = await runInWorkspace(['arazzo', 'validate', file, ...V2], { cwd: h.ws.dir });
    expect(v2.code).toBe(10);
    expect(v2.stdout).toMatch(/:14:25 error REPLACEMENT_TARGET_SYNTAX step "json": replacement target "name" is not a JSON pointer: JSON pointer "name" must be empty or start with "\/"/);
    expect(v2.stdout).toMatch(/:21:25 error REPLACEMENT_TARGET_SYNTAX step "xml": replacement target "\/\/line\[" is not an XPath expression: XPST0003/);
    expect(v2.stdout).not.toContain('REPLACEMENTS_UNSUPPORTED');
    expectNoRun(await h.run('v2-replacements-bad.arazzo.yaml', V2, ROUTES), 10);
  });

  it('keeps v1 as it was: the step fails before sending, pointing at v2', async () => {
    const result = await h.run('v2-replacements.arazzo.yaml', ['--workflow', 'jsonText'], ROUTES);
    expect(result.code).toBe(1);
    expect(failureLine(result.stderr)).toContain('requestBody.replacements are not supported in v1');
    expect(result.stderr).toContain('(runs with --tool-runner v2)');
    expect(h.server.hits).toHaveLength(0);
  });
});
