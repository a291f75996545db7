import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../cli/run-tool.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OFFICIAL = join(ROOT, 'test/fixtures/arazzo-examples/examples/1.0.0');
const FIXTURE = join(ROOT, 'test/fixtures/graph/actions.arazzo.yaml');

describe('tool arazzo graph', () => {
  it('prints Mermaid by default, on stdout only', async () => {
    const r = await runTool(['arazzo', 'graph', FIXTURE]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('flowchart TB');
    expect(r.stderr).toBe('');
  });

  it('draws without reading the remote source description', async () => {
    // The fixture's source is https://shop.example.invalid/...: a fetch would fail, drawing does not.
    const r = await runTool(['arazzo', 'graph', FIXTURE, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'workflow', initial: 's0_load_cart' });
  });

  it('exits 10 with the errors on stderr for an invalid document', async () => {
    const r = await runTool(['arazzo', 'graph', join(OFFICIAL, 'bnpl-arazzo.yaml'), '--workflow', 'ApplyForLoanAtCheckout']);
    expect(r.code).toBe(10);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error UNKNOWN_STEP_OUTPUT');
    expect(r.stderr).toContain('is not a valid workflow document (4 errors)');
  });

  it('asks for --workflow when the document has several, listing them', async () => {
    const r = await runTool(['arazzo', 'graph', join(OFFICIAL, 'pet-coupons.arazzo.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has 3 workflows; choose one with --workflow <id>');
    expect(r.stderr).toContain('Its workflows: apply-coupon, buy-available-pet, place-order');
  });

  it('names the workflows when --workflow matches none', async () => {
    const r = await runTool(['arazzo', 'graph', FIXTURE, '--workflow', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no workflow "nope"');
  });

  it('rejects an unknown format as a usage error', async () => {
    const r = await runTool(['arazzo', 'graph', FIXTURE, '--format', 'png']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('rejects an unknown level as a usage error', async () => {
    const r = await runTool(['arazzo', 'graph', FIXTURE, '--level', 'states']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('draws the steps level by default, and the whole machine with --level machine', async () => {
    const steps = await runTool(['arazzo', 'graph', FIXTURE]);
    const machine = await runTool(['arazzo', 'graph', FIXTURE, '--level', 'machine']);
    expect(steps.stdout.split('\n')[0]).toBe('flowchart TB');
    expect(steps.stdout).not.toContain('budgetSpent');
    expect(machine.stdout.split('\n')[0]).toBe('stateDiagram-v2');
    expect(machine.stdout).toContain('[budgetSpent]');
  });

  it('renders SVG in-process, without a Graphviz binary', async () => {
    const r = await runTool(['arazzo', 'graph', FIXTURE, '--format', 'svg']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^<\?xml[\s\S]*<svg [\s\S]*<\/svg>\n?$/);
    expect(r.stdout).toContain('>load&#45;cart</text>');
  });

  it('exits 2 for a file that does not exist', async () => {
    const r = await runTool(['arazzo', 'graph', join(ROOT, 'test/fixtures/graph/missing.arazzo.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
