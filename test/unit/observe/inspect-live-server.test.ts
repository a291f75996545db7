/** The --inspect server's live view: the steps chart inline under a hash-based CSP, and the `/live` stream of facts, secrets masked. */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { createActor } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import type { StepOutcome } from '../../../machines/types.js';
import { LIVE_VIEW_SCRIPT, LIVE_VIEW_STYLE } from '../../../src/observe/inspect-page.js';
import { startInspector, type LiveInspector } from '../../../src/observe/inspect.js';
import { inlineSvg } from '../../../src/observe/live-chart.js';
import { judgeOf, step } from '../../machines/harness.js';

const SECRET = 'in-s3cret';

/** GET; an event stream is read for `streamMs` and then dropped. */
function get(url: string, streamMs = 300): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      res.on('end', done);
      if (res.headers['content-type'] === 'text/event-stream') setTimeout(() => (res.destroy(), done()), streamMs);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Named server-sent events of a stream, in order. */
function named(stream: string): Array<[string, unknown]> {
  return stream
    .split('\n\n')
    .map((block) => /^(?:retry: \d+\n)?event: (\w+)\ndata: (.*)$/s.exec(block))
    .filter((m) => m !== null)
    .map((m) => [m[1]!, JSON.parse(m[2]!)]);
}

const plan = { workflowId: 'wf', steps: [step('a'), step('b')] };

/** Runs a: 200, b: 500 (its reason quotes a secret input) with the inspector following. */
async function runFailing(live: LiveInspector): Promise<void> {
  const machine = compileWorkflow(plan, judgeOf([]), async (input): Promise<StepOutcome> =>
    input.stepId === 'a' ? { statusCode: 200, ok: true, dryRun: false, outputs: {} } : { statusCode: 500, ok: false, dryRun: false, outputs: {}, reason: `HTTP 500 for ${SECRET}` },
  );
  live.showChart(plan);
  const actor = createActor(machine, { input: { inputs: { password: SECRET }, maxSteps: 10 }, inspect: live.inspect });
  await new Promise<void>((resolve) => {
    actor.subscribe({ complete: resolve });
    actor.start();
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('the live view', () => {
  it('is served with the steps chart inline, its nodes and edges found by id, under a CSP that allows only its own script and style', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      live.showChart(plan);
      const page = await get(live.url);
      expect(page.body).toMatch(/<div id="chart"><svg width="[\d.]+pt"/);
      // Graphviz writes `-` in ids as `&#45;`; the browser reads `node-s0_a`.
      expect(page.body).toContain('<g id="node&#45;s0_a" class="node">');
      expect(page.body).toContain('<g id="edge&#45;s1_b&#45;failed&#45;fail" class="edge">');
      expect(page.body).not.toContain('<?xml');
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      expect(page.headers['content-security-policy']).toBe(
        `default-src 'none'; script-src ${hash(LIVE_VIEW_SCRIPT)}; style-src ${hash(LIVE_VIEW_STYLE)}; connect-src 'self'; base-uri 'none'; form-action 'none'`,
      );
      expect(page.body).toContain(`<script>${LIVE_VIEW_SCRIPT}</script>`);
      expect(page.body).toContain(`<style>${LIVE_VIEW_STYLE}</style>`);
    } finally {
      await live.close();
    }
  });

  it('still follows the run when no chart was drawn', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      expect((await get(live.url)).body).toContain('The chart could not be drawn');
    } finally {
      await live.close();
    }
  });

  it('streams the run, a summary and one fact per transition to a late viewer on /live, secrets masked everywhere', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf', secrets: [SECRET] });
    try {
      await runFailing(live);
      const stream = await get(`${live.url}live`);
      expect(stream.body.startsWith('retry: 1000\nevent: run\ndata: {"runId":"')).toBe(true);
      const events = named(stream.body);
      expect(events.map(([name]) => name)).toEqual(['run', 'summary', 'fact', 'fact', 'fact']);
      expect(events[1]![1]).toMatchObject({ steps: [{ stepId: 'a', runs: 1 }, { stepId: 'b', runs: 1, status: 500, reason: 'HTTP 500 for ***' }] });
      expect(events.slice(2).map(([, fact]) => (fact as { to: string }).to)).toEqual(['s0_a', 's1_b', 'failed']);
      expect(events[4]![1]).toMatchObject({ end: { status: 'failed', failure: { message: 'HTTP 500 for ***' } } });
      expect(stream.body).not.toContain(SECRET);
      const stately = await get(`${live.url}events`);
      expect(stately.body).toContain('HTTP 500 for ***');
      expect(stately.body).not.toContain(SECRET);
      expect(stately.body).not.toContain('event: fact');
    } finally {
      await live.close();
    }
  });
});

describe('inlineSvg', () => {
  it('keeps the <svg> element and drops the prolog and comments', () => {
    const svg = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!-- Title: x -->\n<svg width="1pt">\n<!-- a&#45;&gt;b -->\n<g id="edge-a-b"/>\n</svg>\n';
    expect(inlineSvg(svg)).toBe('<svg width="1pt">\n<g id="edge-a-b"/>\n</svg>');
  });
});
