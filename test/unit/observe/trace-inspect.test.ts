/** The --inspect server: loopback only, replay for late viewers, secrets stripped, clean stop. */
import { describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { Script } from 'node:vm';
import { createActor, type InspectionEvent } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import type { ToolError } from '../../../src/errors/tool-error.js';
import { liveViewHtml, STATELY_BRIDGE_HTML } from '../../../src/observe/inspect-page.js';
import { sanitizeInspectionEvent, startInspector } from '../../../src/observe/inspect.js';
import { Collector } from '../../cli/run-tool.js';
import { judgeOf, step } from '../../machines/harness.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET with an explicit Host header; an event stream is read for `streamMs` and then dropped. */
function get(url: string, host?: string, streamMs = 300): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      res.on('end', done);
      if (res.headers['content-type'] === 'text/event-stream') {
        setTimeout(() => {
          res.destroy();
          done();
        }, streamMs);
      }
    });
    req.on('error', reject);
    req.end();
  });
}

function dataEvents(stream: string): Array<Record<string, unknown>> {
  return stream
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
}

async function runWithInspector(inspect: (event: InspectionEvent) => void): Promise<void> {
  const plan = { workflowId: 'wf', steps: [step('a'), step('b')] };
  const machine = compileWorkflow(plan, judgeOf([]), async () => ({
    statusCode: 200,
    ok: true,
    dryRun: false,
    outputs: { token: 'out-s3cret' },
    data: { request: { headers: { authorization: 'Bearer hdr-s3cret' } } },
  }));
  const actor = createActor(machine, { input: { inputs: { password: 'in-s3cret' }, maxSteps: 10 }, inspect });
  await new Promise<void>((resolve) => {
    actor.subscribe({ complete: resolve });
    actor.start();
  });
  // @statelyai/inspect converts events on a zero timeout; let it catch up.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('startInspector', () => {
  it('listens on 127.0.0.1 only and serves the live view', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      expect(live.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{22}\/$/);
      const page = await get(live.url);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('<title>tool · live run</title>');
      expect(page.body).not.toContain('stately.ai/inspect"');
      expect((await get(`${live.url}stately`)).body).toContain('<iframe id="inspector" src="https://stately.ai/inspect">');
      expect((await get(`${live.url}nope`)).status).toBe(404);
    } finally {
      await live.close();
    }
  });

  it('refuses requests whose Host is not the loopback address (DNS rebinding)', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      expect((await get(live.url, 'evil.example:80')).status).toBe(403);
      const port = new URL(live.url).port;
      expect((await get(live.url, `localhost:${port}`)).status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('replays the run to a viewer that connects after it, without inputs, outputs or step data', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      await runWithInspector(live.inspect);
      const stream = await get(`${live.url}events`);
      expect(stream.body.startsWith('retry: 1000\nevent: run\ndata: {"runId":"')).toBe(true);
      const events = dataEvents(stream.body);
      const root = events.find((e) => e.type === '@xstate.actor' && e.parentId === undefined);
      // The machine's definition comes once, apart; the actor event names it.
      expect(root).toMatchObject({ name: 'workflow', definitionRef: 'd1' });
      expect(stream.body).toMatch(/\nevent: definition\ndata: \{"ref":"d1","definition":"[^\n]*\\"s0_a\\"/);
      const values = events.filter((e) => e.type === '@xstate.snapshot' && e.sessionId === root!.sessionId).map((e) => (e.snapshot as { value: unknown }).value);
      expect(values).toEqual(['s0_a', 's1_b', 'succeeded']);
      expect(stream.body).not.toContain('s3cret');
    } finally {
      await live.close();
    }
  });

  it('says how to connect, and stops cleanly so the port is free again', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    const stderr = new Collector();
    live.announce(stderr);
    expect(stderr.text).toBe(
      `inspect: live view at ${live.url} (this machine only; nothing is sent elsewhere)\n  The Stately inspector: open ${live.url}stately (your browser loads it from stately.ai)\n`,
    );
    await live.close();
    await live.close();
    await expect(get(live.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('waits for Ctrl-C after the run, and not at all when the run was interrupted', async () => {
    const live = await startInspector({ port: 0, workflowId: 'wf' });
    try {
      const stderr = new Collector();
      const controller = new AbortController();
      let held = true;
      const hold = live.holdUntil(controller.signal, stderr).then(() => (held = false));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(held).toBe(true);
      expect(stderr.text).toContain('until you press Ctrl-C');
      controller.abort();
      await hold;
      const quiet = new Collector();
      await live.holdUntil(controller.signal, quiet);
      expect(quiet.text).toBe('');
    } finally {
      await live.close();
    }
  });

  it('refuses a port that is taken, as a usage error', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const error = await startInspector({ port, workflowId: 'wf' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ message: `--inspect cannot listen on 127.0.0.1:${port}: port ${port} is in use` });
      expect(exitCodeFor((error as ToolError).kind)).toBe(2);
    } finally {
      blocker.close();
    }
  });
});

describe('sanitizeInspectionEvent', () => {
  it('keeps state values and counters and drops inputs, outputs, step data and errors', () => {
    const event = {
      type: '@xstate.snapshot',
      sessionId: 'x:0',
      event: { type: 'xstate.init', input: { inputs: { token: 't' } } },
      snapshot: {
        status: 'active',
        value: { s0_a: 'calling' },
        input: { inputs: { token: 't' } },
        output: { token: 't' },
        error: new Error('t'),
        context: {
          workflowId: 'wf',
          inputs: { token: 't' },
          steps: { a: { outputs: { token: 't' } } },
          records: [{ stepId: 'a', status: 200, dryRun: false, outputs: { token: 't' } }],
          last: { statusCode: 200, data: { response: { body: 't' } } },
          outputs: { token: 't' },
          runs: 1,
          maxSteps: 10,
          retries: 0,
          current: 0,
          retryDelayMs: 0,
          failure: { code: 'STEP_FAILED', stepId: 'a', message: 'HTTP 500' },
        },
      },
    };
    expect(sanitizeInspectionEvent(event)).toEqual({
      type: '@xstate.snapshot',
      sessionId: 'x:0',
      event: { type: 'xstate.init' },
      snapshot: {
        status: 'active',
        value: { s0_a: 'calling' },
        context: {
          workflowId: 'wf',
          runs: 1,
          maxSteps: 10,
          retries: 0,
          current: 0,
          retryDelayMs: 0,
          recordsFrom: 0,
          records: [{ stepId: 'a', status: 200, dryRun: false }],
          failure: { code: 'STEP_FAILED', stepId: 'a', message: 'HTTP 500' },
        },
      },
    });
  });
});

describe('the inspector pages', () => {
  const LIVE_VIEW_HTML = liveViewHtml('<svg></svg>');
  const scriptOf = (html: string) => /<script>([\s\S]*)<\/script>/.exec(html)![1]!;

  it('have scripts that compile', () => {
    expect(() => new Script(scriptOf(LIVE_VIEW_HTML))).not.toThrow();
    expect(() => new Script(scriptOf(STATELY_BRIDGE_HTML))).not.toThrow();
  });

  it('load nothing from outside except the Stately page in the bridge', () => {
    expect(LIVE_VIEW_HTML).not.toMatch(/(src|href)="https?:/);
    expect([...STATELY_BRIDGE_HTML.matchAll(/https?:\/\/[^"'\s]+/g)].map((m) => m[0])).toEqual(['https://stately.ai/inspect', 'https://stately.ai']);
  });
});
