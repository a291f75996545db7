/**
 * The --inspect server over real HTTP: events carry run-record deltas (bytes grow linearly with
 * step runs), every page sits under a random token, and the Stately bridge talks only to Stately.
 */
import { describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { runInNewContext } from 'node:vm';
import { createActor, type InspectionEvent } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import { startInspector } from '../../../src/observe/inspect.js';
import { action, judgeOf, step } from '../../machines/harness.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the inspector; an event stream is read until `untilText` shows up, then dropped. */
function get(url: string, opts: { method?: string; untilText?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET' }, (res) => {
      let body = '';
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        if (opts.untilText !== undefined && body.includes(opts.untilText)) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
    });
    req.on('error', reject);
    req.end();
  });
}

type Json = Record<string, any>;

function dataEvents(stream: string): Json[] {
  return stream
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Json);
}

/** Runs a one-step workflow whose step jumps back to itself until `runs` step runs are spent. */
async function runLoop(runs: number, inspect: (event: InspectionEvent) => void): Promise<void> {
  const plan = { workflowId: 'wf', steps: [step('a', { onSuccess: [action('goto', { targetIndex: 0 })], onSuccessFrom: 'step' })] };
  const machine = compileWorkflow(plan, judgeOf([]), async () => ({ statusCode: 200, ok: true, dryRun: false, outputs: { token: 's3cret' } }));
  const actor = createActor(machine, { input: { inputs: {}, maxSteps: runs }, inspect });
  await new Promise<void>((resolve) => {
    actor.subscribe({ complete: resolve, error: () => resolve() });
    actor.start();
  });
  // @statelyai/inspect converts events on a zero timeout; let it catch up.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The replayed events of a finished run of `runs` step runs. */
async function eventsOfRun(runs: number): Promise<string[]> {
  const live = await startInspector({ port: 0, workflowId: 'wf' });
  try {
    await runLoop(runs, live.inspect);
    // The last event: the workflow's snapshot when the budget runs out.
    const stream = await get(`${live.url}events`, { untilText: '"event":{"type":"runStep.budgetSpent"},"snapshot":{"status":"done"' });
    return stream.body.split('\n\n').filter((block) => block.startsWith('data: '));
  } finally {
    await live.close();
  }
}

describe('inspection events', () => {
  it('carry only the records added since the last snapshot, so the bytes sent grow linearly with step runs', async () => {
    const small = await eventsOfRun(50);
    const large = await eventsOfRun(200);
    const bytes = (events: string[]) => events.reduce((sum, e) => sum + e.length, 0);
    const largest = (events: string[]) => Math.max(...events.map((e) => e.length));
    // 4x the runs: about 4x the bytes (the whole record each time made it about 16x), and no event grows.
    expect(bytes(large) / bytes(small)).toBeLessThan(5);
    expect(largest(large)).toBeLessThanOrEqual(largest(small) + 8);
    expect(large.join('')).not.toContain('s3cret');

    // Put back in place, the deltas are the whole record: 200 runs of step a.
    const all: Json[] = [];
    for (const event of dataEvents(large.join('\n\n'))) {
      const ctx = event.snapshot?.context;
      if (event.type !== '@xstate.snapshot' || !ctx) continue;
      all.length = ctx.recordsFrom;
      all.push(...ctx.records);
    }
    expect(all).toHaveLength(200);
    expect(all.every((r) => r.stepId === 'a' && r.status === 200)).toBe(true);
  });
});

describe('the URL token', () => {
  it('is at least 128 random bits, new for every run, and printed in the URL', async () => {
    const [one, two] = [await startInspector({ port: 0, workflowId: 'wf' }), await startInspector({ port: 0, workflowId: 'wf' })];
    try {
      const tokenOf = (url: string) => new URL(url).pathname.split('/')[1]!;
      expect(Buffer.from(tokenOf(one.url), 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(tokenOf(one.url)).not.toBe(tokenOf(two.url));
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('is needed for every page and the event stream', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      const { origin, pathname } = new URL(live.url);
      const token = pathname.split('/')[1]!;
      for (const path of ['/', '/events', '/stately', `/${token.slice(1)}/events`, `/${token}x/events`, `/x${token}/`, `/events/${token}/`, `//${token}/events`]) {
        const reply = await get(`${origin}${path}`);
        expect([path, reply.status]).toEqual([path, 404]);
        expect(reply.body).not.toContain('tool');
      }
      expect((await get(live.url)).status).toBe(200);
      expect((await get(`${live.url}stately`)).status).toBe(200);
      expect((await get(`${live.url}events`, { untilText: 'event: run' })).status).toBe(200);
      expect(await get(`${origin}/${token}`)).toMatchObject({ status: 308, headers: { location: `/${token}/` } });
      expect((await get(`${live.url}events`, { method: 'POST' })).status).toBe(405);
      expect((await get(`${origin}/${token}/events?token=${token}`, { untilText: 'event: run' })).status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('is reached by relative links from the pages', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      const page = (await get(live.url)).body;
      expect(page).toContain("new EventSource('live')");
      expect(page).toContain('href="stately"');
      expect(page).not.toMatch(/["'(]\/(events|live|stately)/);
    } finally {
      await live.close();
    }
  });
});

describe('the Stately bridge page', () => {
  /** Runs the bridge page's script, fetched from the server, against a fake window, frame and event source. */
  async function bridge() {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    const html = (await get(`${live.url}stately`)).body;
    await live.close();
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
    const posted: Array<{ message: Json; target: string }> = [];
    const frameWindow = { postMessage: (message: Json, target: string) => posted.push({ message, target }) };
    const listeners: Array<(e: Json) => void> = [];
    const sources: Array<{ url: string; onmessage?: (e: { data: string }) => void; named: Map<string, (e: { data: string }) => void> }> = [];
    runInNewContext(script, {
      document: { getElementById: () => ({ contentWindow: frameWindow }) },
      window: { addEventListener: (type: string, listener: (e: Json) => void) => type === 'message' && listeners.push(listener) },
      EventSource: class {
        onmessage?: (e: { data: string }) => void;
        readonly named = new Map<string, (e: { data: string }) => void>();
        constructor(readonly url: string) {
          sources.push(this);
        }
        addEventListener(type: string, listener: (e: { data: string }) => void) {
          this.named.set(type, listener);
        }
      },
    });
    const message = (e: Json) => listeners.forEach((listener) => listener(e));
    const event = (ev: Json) => sources[0]!.onmessage!({ data: JSON.stringify(ev) });
    const named = (type: string, data: Json) => sources[0]!.named.get(type)!({ data: JSON.stringify(data) });
    return { posted, frameWindow, message, event, named, sources };
  }

  const snapshot = (recordsFrom: number, stepIds: string[]) => ({
    type: '@xstate.snapshot',
    sessionId: 'x:0',
    snapshot: { status: 'active', value: 's0_a', context: { runs: recordsFrom + stepIds.length, recordsFrom, records: stepIds.map((stepId) => ({ stepId, status: 200 })) } },
  });

  it('ignores "connected" from any origin or window but the embedded Stately inspector, and posts only to Stately', async () => {
    const b = await bridge();
    expect(b.sources[0]!.url).toBe('events');
    b.event(snapshot(0, ['a']));
    b.message({ origin: 'https://evil.example', source: b.frameWindow, data: { type: '@statelyai.connected' } });
    b.message({ origin: 'https://stately.ai', source: {}, data: { type: '@statelyai.connected' } });
    b.message({ origin: 'http://127.0.0.1:1', source: b.frameWindow, data: { type: '@statelyai.connected' } });
    expect(b.posted).toEqual([]);
    b.message({ origin: 'https://stately.ai', source: b.frameWindow, data: { type: '@statelyai.connected' } });
    b.event(snapshot(1, ['b']));
    expect(b.posted.map((p) => p.target)).toEqual(['https://stately.ai', 'https://stately.ai']);
    // Stately is shown the whole record, put back together from the deltas.
    expect(b.posted.map((p) => p.message.snapshot.context.records.map((r: Json) => r.stepId))).toEqual([['a'], ['a', 'b']]);
    expect(b.posted[1]!.message.snapshot.context.recordsFrom).toBeUndefined();
  });

  it("shows Stately each actor with its machine's definition, sent once and named by each actor event (issue 23, item 12)", async () => {
    const b = await bridge();
    b.message({ origin: 'https://stately.ai', source: b.frameWindow, data: { type: '@statelyai.connected' } });
    b.named('definition', { ref: 'd1', definition: '{"id":"workflow"}' });
    b.event({ type: '@xstate.actor', sessionId: 'x:1', name: 'workflow', definitionRef: 'd1' });
    b.event({ type: '@xstate.actor', sessionId: 'x:2', name: 'workflow', definitionRef: 'd1' });
    expect(b.posted.map((p) => p.message)).toEqual([
      { type: '@xstate.actor', sessionId: 'x:1', name: 'workflow', definition: '{"id":"workflow"}' },
      { type: '@xstate.actor', sessionId: 'x:2', name: 'workflow', definition: '{"id":"workflow"}' },
    ]);
  });
});
