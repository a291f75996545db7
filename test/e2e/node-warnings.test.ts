/**
 * Node's own warnings ("(node:PID) Warning: ...") never reach a user's stderr: a long run with many
 * retries emits none, and one that Node emits anyway (a setting in the environment) is shown only
 * with --debug or TOOL_DEBUG=1.
 */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './helpers/harness.js';
import { recordOf, STACK_FRAME } from './helpers/record.js';
import { runTool } from './helpers/run-tool.js';

const h = useRunHarness();
const STEPS = 1000;
/** 503s before /a answers 200: with 2 transport retries per attempt, ~67 workflow retries. */
const BUSY_ANSWERS = 200;
/** Anything like Node's warning lines, broader than helpers/record.ts's NODE_WARNING. */
const ANY_NODE_WARNING = /\(node:\d+\)|Warning:/;

/** A retried step, then `steps` steps each calling GET /echo/<i>. */
function longDocument(steps: number): string {
  const lines = [
    'arazzo: 1.0.1',
    'info: { title: A long run with many retries, version: 1.0.0 }',
    'sourceDescriptions:',
    '  - { name: api, url: ./api.openapi.yaml, type: openapi }',
    'workflows:',
    '  - workflowId: longAndRetried',
    '    steps:',
    '      - stepId: busy',
    '        operationId: getA',
    '        successCriteria: [{ condition: $statusCode == 200 }]',
    '        onFailure: [{ name: again, type: retry, retryLimit: 100 }]',
  ];
  for (let i = 1; i <= steps; i++) lines.push(`      - stepId: s${i}`, '        operationId: echo', `        parameters: [{ name: n, in: path, value: ${i} }]`);
  return `${lines.join('\n')}\n`;
}

describe('Node warnings', () => {
  it(`are not emitted by a ${STEPS}-step run with many transport and workflow retries`, async () => {
    h.server.setRoutes({
      'GET /a': (_hit, n) => (n <= BUSY_ANSWERS ? { status: 503, headers: { 'retry-after': '0' } } : { body: { ok: true } }),
      'GET /echo/{n}': { body: { ok: true } },
    });
    h.ws.write('long-retried.arazzo.yaml', longDocument(STEPS));
    const result = await h.tool(['arazzo', 'run', 'long-retried.arazzo.yaml', '--trace', 'long-retried.ndjson'], 60_000);
    expect(result.code).toBe(0);
    const steps = recordOf(result).steps;
    // Each workflow attempt is three requests (two transport retries): 66 attempts fail, the 67th succeeds.
    const attempts = Math.ceil((BUSY_ANSWERS + 1) / 3);
    expect(steps.filter((step) => step.stepId === 'busy')).toHaveLength(attempts);
    expect(steps).toHaveLength(attempts + STEPS);
    expect(h.server.count('GET /a')).toBe(BUSY_ANSWERS + 1);
    expect(result.stderr).not.toMatch(ANY_NODE_WARNING);
  }, 90_000);

  // Node warns on the first TLS connection when NODE_TLS_REJECT_UNAUTHORIZED=0 is set; the
  // handshake with a plain-HTTP server then fails, which is enough to make it connect.
  const insecure = (extra: Record<string, string> = {}) => ({ NODE_TLS_REJECT_UNAUTHORIZED: '0', ...extra });

  it('that Node emits anyway are not printed: only the one error line', async () => {
    const url = h.server.url.replace('http:', 'https:');
    const result = await runTool(['get', `${url}/a`, '--tool-retry', '0'], { cwd: h.ws.dir, env: insecure() });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(ANY_NODE_WARNING);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: TLS failure/)]);
  }, 30_000);

  it('are printed with --debug and with TOOL_DEBUG=1', async () => {
    const url = h.server.url.replace('http:', 'https:');
    const flag = await runTool(['get', `${url}/a`, '--tool-retry', '0', '--debug'], { cwd: h.ws.dir, env: insecure() });
    expect(flag.stderr).toMatch(/\(node:\d+\) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable/);
    const env = await runTool(['get', `${url}/a`, '--tool-retry', '0'], { cwd: h.ws.dir, env: insecure({ TOOL_DEBUG: '1' }) });
    expect(env.stderr).toMatch(/\(node:\d+\) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable/);
    expect(env.code).toBe(1);
    // Without --debug the same failure has no stack; with it, the stack is expected.
    expect(flag.stderr).toMatch(STACK_FRAME);
  }, 30_000);
});
