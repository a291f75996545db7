/**
 * What the --inspect server keeps is bounded (issue 23, item 12): a workflow run 1,000 times used
 * to add its whole machine definition to every actor event, all of them kept for late viewers
 * (1.9 GB), and the live view's chart of a huge workflow was laid out on the main thread.
 */
import { describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { createActor } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import { startInspector, type LiveInspector } from '../../../src/observe/inspect.js';
import { judgeOf, step } from '../../machines/harness.js';

/** Reads `url` for `ms` milliseconds (event streams stay open) and returns the body. */
function read(url: string, ms = 500): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
      setTimeout(() => {
        res.destroy();
        resolve(body);
      }, ms);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A plan of `steps` steps (s1, s2, …): its machine's definition is large. */
function widePlan(steps: number) {
  return { workflowId: 'wf', steps: Array.from({ length: steps }, (_, i) => step(`s${i + 1}`)) };
}

/** Runs `times` machines of `plan` one after the other, each for one step run, with the inspector following. */
async function runMany(live: LiveInspector, plan: ReturnType<typeof widePlan>, times: number): Promise<void> {
  const machine = compileWorkflow(plan, judgeOf([]), async () => ({ statusCode: 200, ok: true, dryRun: false, outputs: {} }));
  for (let i = 0; i < times; i++) {
    const actor = createActor(machine, { input: { inputs: {}, maxSteps: 1 }, inspect: live.inspect });
    await new Promise<void>((resolve) => {
      actor.subscribe({ complete: resolve, error: () => resolve() });
      actor.start();
    });
  }
  // @statelyai/inspect converts events on a zero timeout; let it catch up.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('the Stately relay of --inspect', () => {
  it("sends a machine's definition once however many actors run it, and keeps the first and the latest actor events only", async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf', maxKeptActors: 5 });
    try {
      await runMany(live, widePlan(300), 30);
      const body = await read(`${live.url}events`);
      const blocks = body.split('\n\n');
      // One per logic: the workflow's machine, and the step runner each of its steps invokes.
      const definitions = blocks.filter((b) => b.startsWith('event: definition\n')).map((b) => JSON.parse(b.slice('event: definition\ndata: '.length)) as { ref: string; definition: string });
      expect(definitions.map((d) => d.ref)).toEqual(['d1', 'd2']);
      const definition = definitions.find((d) => d.definition.includes('s299_s300'))!;
      expect(JSON.parse(definition.definition)).toMatchObject({ id: 'workflow' });

      const actors = blocks.filter((b) => b.startsWith('data: ')).map((b) => JSON.parse(b.slice(6))).filter((e) => e.type === '@xstate.actor');
      // The first actor (the first workflow machine), then the 5 latest of the 59 others (29 machines and 30 step runners).
      expect(actors).toHaveLength(6);
      expect(actors[0]).toMatchObject({ name: 'workflow', definitionRef: definition.ref, sessionId: 'x:0' });
      expect(actors.at(-1)).toMatchObject({ definitionRef: definitions.find((d) => d !== definition)!.ref });
      expect(actors.every((a) => a.definition === undefined && typeof a._version === 'string')).toBe(true);
      // All 30 actor events with their definition were 30 times its size; now about once.
      expect(body.length).toBeLessThan(2 * definition.definition.length + 200_000);
    } finally {
      await live.close();
    }
  }, 120_000);
});

describe('the live view of --inspect', () => {
  it('says why a chart too large to lay out is not drawn, at once, and follows the run all the same', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      const started = Date.now();
      live.showChart(widePlan(400));
      const page = await read(live.url, 2000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(page).toContain('<p class="muted" id="no-chart">The chart is not drawn: the chart has 403 nodes, too many to render as SVG (at most 300) (tool arazzo graph --format dot or mermaid prints it). The steps and the log still follow the run.</p>');
      await runMany(live, widePlan(400), 1);
      expect(await read(`${live.url}live`)).toContain('"to":"s1_s2"');
    } finally {
      await live.close();
    }
  }, 120_000);
});
