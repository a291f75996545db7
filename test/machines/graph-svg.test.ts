/** The steps-level SVG (`--format svg`, rendered in-process by WebAssembly Graphviz) fits a laptop screen. */
import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../cli/run-tool.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Graphviz sizes SVGs in points; a CSS pixel is 3/4 of a point. */
const PX_PER_PT = 4 / 3;

async function svgSizePx(file: string, ...flags: string[]): Promise<{ width: number; height: number }> {
  const r = await runTool(['arazzo', 'graph', file, '--format', 'svg', ...flags]);
  expect(r.code).toBe(0);
  const size = /<svg width="([\d.]+)pt" height="([\d.]+)pt"/.exec(r.stdout);
  expect(size).not.toBeNull();
  return { width: Number(size![1]) * PX_PER_PT, height: Number(size![2]) * PX_PER_PT };
}

describe('tool arazzo graph --format svg', () => {
  it('draws a 10-step workflow with gotos and retries in at most 1600 x 1400 px', async () => {
    const { width, height } = await svgSizePx(join(ROOT, 'test/fixtures/graph/ten-steps.arazzo.yaml'));
    expect(width).toBeLessThanOrEqual(1600);
    expect(height).toBeLessThanOrEqual(1400);
  });

  it('draws the demo workflow smaller than 800 x 800 px', async () => {
    const { width, height } = await svgSizePx(join(ROOT, 'examples/demo/adopt-pet.arazzo.yaml'));
    expect(width).toBeLessThanOrEqual(800);
    expect(height).toBeLessThanOrEqual(800);
  });
});
