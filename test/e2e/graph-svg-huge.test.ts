/**
 * `tool arazzo graph --format svg` on a generated 1,500-step workflow (issue 23, item 12): the
 * real binary ends at once with a one-line error and its hint (exit 2, SVG_TOO_LARGE), where
 * Graphviz used to lay the chart out for hours; `--format dot` still prints the chart.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureBuilt } from './helpers/build.js';
import { STACK_FRAME } from './helpers/record.js';
import { runTool } from './helpers/run-tool.js';
import { makeWorkspace, type Workspace } from './helpers/workspace.js';

const STEPS = 1500;

/** A workflow of `steps` steps, each of which goes back a few steps on failure. */
function hugeDocument(steps: number): string {
  const lines = [
    'arazzo: 1.0.1',
    'info: { title: A huge workflow, version: 1.0.0 }',
    'sourceDescriptions:',
    '  - { name: api, url: ./api.openapi.yaml, type: openapi }',
    'workflows:',
    '  - workflowId: huge',
    '    steps:',
  ];
  for (let i = 1; i <= steps; i++) {
    lines.push(`      - stepId: s${i}`, '        operationId: getA', '        onFailure:', `          - { name: back, type: goto, stepId: s${Math.max(1, i - 7)} }`);
  }
  return `${lines.join('\n')}\n`;
}

const API = `openapi: 3.0.3
info: { title: t, version: 1.0.0 }
servers: [{ url: 'http://127.0.0.1:9' }]
paths:
  /a:
    get: { operationId: getA, responses: { '200': { description: ok } } }
`;

let ws: Workspace;
beforeAll(async () => {
  await ensureBuilt();
  ws = makeWorkspace('tool-graph-huge-');
  ws.write('api.openapi.yaml', API);
  ws.write('huge.arazzo.yaml', hugeDocument(STEPS));
}, 120_000);
afterAll(() => ws.remove());

describe(`tool arazzo graph on a ${STEPS}-step workflow`, () => {
  it('refuses --format svg at once with a one-line error and a hint (exit 2), printing nothing', async () => {
    const r = await runTool(['arazzo', 'graph', 'huge.arazzo.yaml', '--format', 'svg'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: the chart has ${STEPS + 3} nodes, too many to render as SVG (at most 300); nothing was drawn\n` +
        "  Print it with --format dot (for Graphviz's own dot, which may take long on it) or --format mermaid, or draw one workflow with --workflow.\n",
    );
    expect(r.stderr).not.toMatch(STACK_FRAME);
  }, 120_000);

  it('still prints it with --format dot', async () => {
    const r = await runTool(['arazzo', 'graph', 'huge.arazzo.yaml', '--format', 'dot'], { cwd: ws.dir, timeoutMs: 90_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`"s${STEPS - 1}_s${STEPS}" [label="s${STEPS}"`);
  }, 120_000);
});
