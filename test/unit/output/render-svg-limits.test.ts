/**
 * Graphviz on a worker thread, with a node cap and a time limit (issue 23, item 12): a large chart
 * is refused at once or stopped at the limit, and the event loop stays free while it is laid out.
 */
import { describe, expect, it } from '@jest/globals';
import { dotNodeCount, renderSvg, SvgRefusedError } from '../../../src/output/render-svg.js';

/**
 * A chain of `steps` labelled steps, each with a labelled edge to a `failed` node on the bottom
 * rank: the shape of a long workflow's steps chart, which Graphviz takes minutes to lay out.
 */
function chainDot(steps: number): string {
  const lines = ['digraph "workflow" {', '  node [shape=box];', '  edge [fontsize=9];', '  "failed" [label="failed", id="node-failed"];', '  { rank=sink; "failed"; }'];
  for (let i = 0; i < steps; i++) lines.push(`  "s${i}" [label="step ${i}"];`);
  for (let i = 0; i < steps; i++) {
    if (i + 1 < steps) lines.push(`  "s${i}" -> "s${i + 1}" [label="next step"];`);
    lines.push(`  "s${i}" -> "failed" [label="fail", color="#b22222"];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** The longest pause of the event loop while `work` runs, sampled every 10 ms. */
async function longestPause<T>(work: Promise<T>): Promise<{ pauseMs: number; outcome: PromiseSettledResult<T> }> {
  let last = Date.now();
  let pauseMs = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    pauseMs = Math.max(pauseMs, now - last);
    last = now;
  }, 10);
  const [outcome] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { pauseMs, outcome: outcome! };
}

describe('renderSvg', () => {
  it('counts the node statements of a dot text, not its edges or defaults', () => {
    expect(dotNodeCount(chainDot(5))).toBe(6);
  });

  it('refuses a chart over the node cap before Graphviz starts', async () => {
    const started = Date.now();
    const refused = await renderSvg(chainDot(400), { maxNodes: 300 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SvgRefusedError);
    expect(refused).toMatchObject({ code: 'TOO_MANY_NODES', nodes: 401, limit: 300, message: 'the chart has 401 nodes, too many to render as SVG (at most 300)' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops Graphviz at the time limit on a chart it cannot lay out in time, the event loop free meanwhile', async () => {
    const started = Date.now();
    const { pauseMs, outcome } = await longestPause(renderSvg(chainDot(150), { timeLimitMs: 2000 }));
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'TIME_LIMIT', nodes: 151, message: 'Graphviz did not lay out the chart (151 nodes) within 2 s' });
    // Generous for a loaded 2-core machine: on the main thread, this layout blocks for minutes.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(pauseMs).toBeLessThan(1500);
  }, 30_000);

  it('stops the layout when its signal aborts', async () => {
    const controller = new AbortController();
    const rendering = renderSvg(chainDot(150), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the live view closed')), 200);
    await expect(rendering).rejects.toThrow('the live view closed');
  }, 30_000);

  it('still renders a small chart', async () => {
    const svg = await renderSvg(chainDot(3));
    expect(svg).toContain('<svg');
    expect(svg).toContain('id="node&#45;failed"');
  }, 30_000);
});
