/**
 * `tool arazzo graph --tool-runner v2` of workflows that call and transfer: each called workflow's
 * chart drawn once, in the calling step's cluster, a transfer as an edge to the target's chart,
 * golden files for the v2-nested fixture. Regenerate with
 * `UPDATE_GOLDEN=1 npm test -- test/machines/graph-workflow-calls`.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../cli/run-tool.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GOLDEN = join(ROOT, 'test/golden/graph/steps-v2');
const NESTED = join(ROOT, 'test/fixtures/run/v2-nested.arazzo.yaml');
const CALLS = join(ROOT, 'test/fixtures/graph/v2-calls.arazzo.yaml');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const graph = (file: string, workflow: string, ...flags: string[]) => runTool(['arazzo', 'graph', file, '--tool-runner', 'v2', '--workflow', workflow, ...flags]);

function expectGolden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(existsSync(path) ? readFileSync(path, 'utf8') : `(no golden file ${name}; run with UPDATE_GOLDEN=1)`).toBe(actual);
}

const TABLE = ['main', 'transfers', 'nestedTransfer'].flatMap((workflow) => [
  [`v2-nested-${workflow}.dot`, workflow, 'dot'],
  [`v2-nested-${workflow}.mmd`, workflow, 'mermaid'],
]);

describe('tool arazzo graph --tool-runner v2: nested steps and transfers', () => {
  it.each(TABLE)('draws %s', async (golden, workflow, format) => {
    const result = await graph(NESTED, workflow!, '--format', format!);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectGolden(golden!, result.stdout);
  });

  it('draws a nested step as a cluster holding the called workflow, and the call as a dashed edge into it', async () => {
    const { stdout } = await graph(NESTED, 'main', '--format', 'dot');
    expect(stdout).toMatch(/subgraph "cluster_call_s1_callChild" \{\n {4}label="callChild → workflow child";[\s\S]*"s1_callChild" \[[\s\S]*subgraph "cluster_wf_child" \{[\s\S]*"child\/s0_fetch" \[label="fetch"/);
    expect(stdout).toContain('"s1_callChild" -> "child/start" [label="calls", style=dashed, lhead="cluster_wf_child", id="call-s1_callChild"];');
  });

  it('draws a transfer as an edge labelled with the action into the target workflow\'s cluster, and no transferred final', async () => {
    const { stdout } = await graph(NESTED, 'transfers', '--format', 'dot');
    expect(stdout).toContain('"s0_first" -> "target/start" [label="goto workflow target", lhead="cluster_wf_target"');
    expect(stdout).not.toContain('"transferred"');
  });

  it('draws a workflow called from two steps once, the second call an edge into the same cluster, and a transfer back to the caller ends', async () => {
    const { stdout, code } = await graph(CALLS, 'twice', '--format', 'dot');
    expect(code).toBe(0);
    expect(stdout.match(/subgraph "cluster_wf_login"/g)).toHaveLength(1);
    expect(stdout).toContain('"s2_loginAgain" -> "login/start" [label="calls", style=dashed, lhead="cluster_wf_login", id="call-s2_loginAgain"];');
    expect(stdout).toContain('"login/s0_doLogin" -> "start" [label="goto workflow twice"');
  });

  it('draws a workflow that calls itself with a calls edge back to its start', async () => {
    const { stdout, code } = await graph(NESTED, 'selfCall', '--format', 'mermaid');
    expect(code).toBe(0);
    expect(stdout).toContain('s0_again -.->|"calls"| start');
    expect(stdout).not.toContain('subgraph');
  });

  it('says in a retry\'s label which step or workflow it runs first', async () => {
    expect((await graph(NESTED, 'retryStep', '--format', 'dot')).stdout).toContain('retry ≤2, running step refresh first: $statusCode == 409');
    expect((await graph(NESTED, 'retryWorkflow', '--format', 'dot')).stdout).toContain('retry ≤2, running workflow login first: $statusCode == 401');
  });

  it('renders the clusters to SVG, each node and cluster with its id', async () => {
    const { stdout, code, stderr } = await graph(NESTED, 'nestedTransfer', '--format', 'svg');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('<svg');
    // Graphviz writes `-` in ids as `&#45;`.
    const svg = stdout.replaceAll('&#45;', '-');
    for (const id of ['node-s0_callTransfers', 'cluster_wf_transfers', 'node-transfers/s0_first', 'node-target/s0_last', 'edge-transfers/s0_first-transfers/transferred-target', 'call-s0_callTransfers']) {
      expect(svg).toContain(`id="${id}"`);
    }
  });

  it('draws the machine level with the called machines by name', async () => {
    const { stdout, code } = await graph(NESTED, 'main', '--level', 'machine', '--format', 'mermaid');
    expect(code).toBe(0);
    expect(stdout).toContain('workflow:child');
  });
});
