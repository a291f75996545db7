/**
 * `arazzo replay --from run.har`: the workflow runs again against the responses `arazzo run --har`
 * recorded, matched by method, URL and order, and nothing reaches the server. The same document
 * gives the same record; an edited criterion or action takes the run down another path, and a
 * request the recording cannot answer fails its step with a message naming it.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import type { Routes } from '../e2e/helpers/scripted-server.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const TRACE = 'trace-Secret-31be';
const BUSY = '$statusCode == 503';

const routes = (name = 'Rex'): Routes => ({
  'GET /items': (hit) => ({ body: { items: ['7'], traced: hit.headers['x-trace'] !== undefined } }),
  'GET /items/{id}': [{ status: 503 }, { body: { name, tags: ['a', 'b'] } }],
  'GET /a': { body: { ok: true } },
  'GET /cleanup': {},
});

/** Writes the lookup document (with its criteria filled in) as `as` and returns its path. */
const document = (vars: { NAME?: string; BUSY?: string } = {}, as = 'lookup.arazzo.yaml') =>
  h.ws.fixture('report-lookup.arazzo.yaml', { BASE_URL: h.server.url, NAME: 'Rex', BUSY, ...vars }, as);

const tool = (args: string[]) => runInWorkspace(args, { cwd: h.ws.dir, env: { TRACE_VALUE: TRACE } });

/** Records a run of the lookup document (the server answering `name`) into `har`. */
async function record(har: string, name = 'Rex') {
  h.server.setRoutes(routes(name));
  const result = await tool(['arazzo', 'run', document(), '--tool-retry', '0', '--input-env', 'trace=TRACE_VALUE', '--har', har]);
  return { result, hits: h.server.hits.length };
}

describe('arazzo replay', () => {
  it('gives the recorded run its record again, and sends nothing', async () => {
    const recorded = await record('ok.har');
    expect(recorded.result.code).toBe(0);
    expect(recorded.hits).toBe(4);
    const replayed = await tool(['arazzo', 'replay', document(), '--from', 'ok.har', '--input-env', 'trace=TRACE_VALUE']);
    expect(replayed.stderr).not.toContain('error:');
    expect(replayed.code).toBe(0);
    expect(recordOf(replayed)).toEqual(recordOf(recorded.result));
    expect(h.server.hits).toHaveLength(recorded.hits);
  });

  it('gives a failed run its record again, with exit 1', async () => {
    const recorded = await record('failed.har', 'Max');
    expect(recorded.result.code).toBe(1);
    const replayed = await tool(['arazzo', 'replay', document(), '--from', 'failed.har', '--input-env', 'trace=TRACE_VALUE']);
    expect(replayed.code).toBe(1);
    expect(recordOf(replayed)).toEqual(recordOf(recorded.result));
    expect(replayed.stderr).toContain('error: workflow "lookup" failed at step "fetch": HTTP 200: success criterion');
  });

  it('takes another path when a criterion of the document is edited', async () => {
    const recorded = await record('edit.har');
    expect(recorded.result.code).toBe(0);
    const replayed = await tool(['arazzo', 'replay', document({ NAME: 'Max' }, 'edited.arazzo.yaml'), '--from', 'edit.har', '--input-env', 'trace=TRACE_VALUE']);
    expect(replayed.code).toBe(1);
    expect(recordOf(replayed).steps.map((s) => [s.stepId, s.status])).toEqual([
      ['search', 200],
      ['fetch', 503],
      ['fetch', 200],
    ]);
    expect(recordOf(replayed)).not.toEqual(recordOf(recorded.result));
    expect(replayed.stderr).toContain('  $response.body#/name == "Max"  →  "Rex" == "Max"  false');
    expect(h.server.hits).toHaveLength(recorded.hits);
  });

  it('fails a step whose request the recording has no response left for, naming the request', async () => {
    const recorded = await record('short.har');
    const edited = document({ NAME: 'Max', BUSY: '$statusCode != 0' }, 'retries-more.arazzo.yaml');
    const replayed = await tool(['arazzo', 'replay', edited, '--from', 'short.har', '--input-env', 'trace=TRACE_VALUE']);
    expect(replayed.code).toBe(1);
    // The third lookup (the second retry) has no recorded response: its step fails with status 0, which no action takes.
    const message = `no recorded response for GET ${h.server.url}/items/7 in short.har: its 2 recorded responses were used by earlier requests`;
    expect(replayed.stderr).toContain(`✗ fetch GET ${h.server.url}/items/7 ---: ${message} (the run took another path than the recorded one`);
    expect(replayed.stderr).toContain(`error: workflow "lookup" failed at step "fetch": ${message}`);
    expect(recordOf(replayed).steps.map((s) => s.status)).toEqual([200, 503, 200, 0]);
    expect(h.server.hits).toHaveLength(recorded.hits);
  });

  it('names the HAR file in its reports', async () => {
    await record('reported.har');
    const replayed = await tool(['arazzo', 'replay', document(), '--from', 'reported.har', '--input-env', 'trace=TRACE_VALUE', '--report', 'replay.json', '--quiet']);
    expect(replayed.code).toBe(0);
    const report = JSON.parse(readFileSync(join(h.ws.dir, 'replay.json'), 'utf8')) as { command: string; replayOf: string; steps: unknown[] };
    expect(report).toMatchObject({ command: 'replay', replayOf: 'reported.har' });
    expect(report.steps).toHaveLength(4);
    expect(readFileSync(join(h.ws.dir, 'replay.json'), 'utf8')).not.toContain(TRACE);
  });

  it('refuses a --from file that is missing or not a HAR file, with exit 2 and nothing run', async () => {
    h.ws.write('bad.har', 'not json');
    h.ws.write('empty.har', '{"log": {}}');
    const cases: Array<[string, string]> = [
      ['missing.har', 'cannot read the --from file missing.har: ENOENT'],
      ['bad.har', 'bad.har: not valid JSON'],
      ['empty.har', 'empty.har: /log/entries: expected the array of entries of a HAR file'],
    ];
    const without = await tool(['arazzo', 'replay', document()]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('error: arazzo replay needs --from <file.har>');
    for (const [file, message] of cases) {
      const result = await tool(['arazzo', 'replay', document(), '--from', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    }
  });
});
