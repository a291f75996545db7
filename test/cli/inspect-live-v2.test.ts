/** The --inspect live stream of a v2 run: a nested workflow step is one run of its step, and the stream follows the selected workflow only. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import type { LiveFact } from '../../src/run/live-feed.js';
import { startScriptedServer, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { Collector } from './run-tool.js';

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer({
    'GET /a': { status: 200, body: { id: 'x7' } },
    'GET /items/{id}': { status: 200, body: { status: 'ready' } },
  });
  ws = makeWorkspace('tool-inspect-v2-');
  ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  ws.fixture('v2-nested.arazzo.yaml');
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

/** Reads the `/live` stream for a moment and returns its facts. */
function facts(url: string): Promise<LiveFact[]> {
  return new Promise((resolve, reject) => {
    get(`${url}live`, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      setTimeout(() => {
        res.destroy();
        resolve([...body.matchAll(/event: fact\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!) as LiveFact));
      }, 300);
    }).on('error', reject);
  });
}

describe('tool arazzo run --tool-runner v2 --inspect', () => {
  it('shows a nested workflow step as one run of its step, the called workflow\'s facts apart', async () => {
    const controller = new AbortController();
    const stderr = new Collector();
    const exit = runCli(['arazzo', 'run', 'v2-nested.arazzo.yaml', '--workflow', 'main', '--tool-runner', 'v2', '--inspect-hold', '--quiet'], {
      stdin: new PassThrough(),
      stdout: new Collector(),
      stderr,
      env: { XDG_CONFIG_HOME: `${ws.dir}/config`, XDG_CACHE_HOME: `${ws.dir}/cache` },
      cwd: ws.dir,
      colors: false,
      stderrIsTTY: false,
      stdoutIsTTY: false,
      signal: controller.signal,
    });
    try {
      const deadline = Date.now() + 30_000;
      while (!stderr.text.includes('until you press Ctrl-C')) {
        if (Date.now() > deadline) throw new Error(stderr.text);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const made = await facts(/live view at (\S+)/.exec(stderr.text)![1]!);
      // The called workflow's facts carry its actor path (inspect-live-v2-calls.test.ts).
      expect(made.filter((f) => f.actor === undefined).map((f) => [f.from, f.to, f.step?.stepId, f.step?.runs, f.edge?.id])).toEqual([
        ['', 's0_first', undefined, undefined, 'edge-start-s0_first'],
        ['s0_first', 's1_callChild.calling', 'first', 1, 'edge-s0_first-s1_callChild'],
        ['s1_callChild.calling', 's1_callChild.invoking', undefined, undefined, undefined],
        ['s1_callChild.invoking', 's1_callChild.judging', undefined, undefined, undefined],
        ['s1_callChild', 's2_after', 'callChild', 1, 'edge-s1_callChild-s2_after'],
        ['s2_after', 'succeeded', 'after', 1, 'edge-s2_after-succeeded'],
      ]);
      expect(made.filter((f) => f.actor === undefined)[3]!.event).toBe('nested workflow done');
      expect(made.at(-1)!.end).toEqual({ status: 'succeeded' });
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });
});
