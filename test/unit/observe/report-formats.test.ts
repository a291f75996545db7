/**
 * The pure parts of the report files: JUnit XML escaping, the replay pipeline's matching, HAR
 * parsing errors, the merge of captured step runs with the run record, and the atomic file.
 */
import { describe, expect, it } from '@jest/globals';
import { DOMParser } from '@xmldom/xmldom';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../../../src/errors/tool-error.js';
import { TransportError } from '../../../src/http/transport-error.js';
import type { HttpRequest } from '../../../src/http/types.js';
import { mergeRecords, type StepRun } from '../../../src/observe/report/capture-runs.js';
import { buildJunit } from '../../../src/observe/report/junit-xml.js';
import { openOutputFile } from '../../../src/observe/report/output-file.js';
import { parseHar, replayPipeline, type RecordedExchange } from '../../../src/observe/report/replay-pipeline.js';
import type { RunSummary } from '../../../src/observe/report/run-report.js';

const summary = (over: Partial<RunSummary> = {}): RunSummary => ({
  command: 'run',
  document: 'flow.arazzo.yaml',
  workflowId: 'wf',
  runner: 'v1',
  status: 'failed',
  startedAt: 0,
  durationMs: 12,
  outputs: {},
  ...over,
});
const run = (over: Partial<StepRun>): StepRun => ({ run: 1, stepId: 's', ok: true, status: 200, dryRun: false, transportRetries: [], criteria: [], actions: [], ...over });

describe('buildJunit', () => {
  it('escapes markup and drops what XML 1.0 cannot carry, in attributes and text', () => {
    const hostile = 'a "q" \'s\' <b> & ]]> \u0001\u0008\uFFFE\uD800 end';
    const xml = buildJunit(summary({ workflowId: `wf ${hostile}`, failure: { code: 'STEP_FAILED', stepId: 's', reason: hostile } }), [run({ ok: false, reason: hostile, explanation: [`  ${hostile}`] })], {});
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(xml, 'text/xml');
    expect(errors).toEqual([]);
    const clean = 'a "q" \'s\' <b> & ]]>  end';
    expect(doc.getElementsByTagName('testsuite')[0]?.getAttribute('name')).toBe(`wf ${clean}`);
    const failure = doc.getElementsByTagName('failure')[0];
    expect(failure?.getAttribute('message')).toBe(clean);
    expect(failure?.textContent).toBe(`${clean}\n  ${clean}`);
  });

  it('adds a testcase for a failure that no step run shows, and none when the failed step explains it', () => {
    const budget = buildJunit(summary({ failure: { code: 'STEP_BUDGET_EXHAUSTED', stepId: 's' } }), [run({})], {});
    expect(budget).toContain('<testcase name="workflow wf" classname="wf" time="0.012">');
    expect(budget).toContain('type="STEP_BUDGET_EXHAUSTED"');
    const explained = buildJunit(summary({ failure: { code: 'STEP_FAILED', stepId: 's', reason: 'HTTP 500' } }), [run({ ok: false, status: 500, reason: 'HTTP 500' })], {});
    expect(explained).not.toContain('workflow wf');
    expect(explained).toContain('tests="1" failures="1"');
  });
});

describe('replayPipeline', () => {
  const entry = (url: string, status: number, text?: string): RecordedExchange => ({ method: 'GET', url, status, headers: [{ name: 'Content-Type', value: 'application/json' }], ...(text === undefined ? {} : { text }), base64: false, time: 3, retries: 0 });
  const get = (url: string): HttpRequest => ({ method: 'GET', url, headers: {} });

  it('answers each method and URL with its recordings in order, then fails naming the request', async () => {
    const pipeline = replayPipeline([entry('http://h/a', 503), entry('http://h/b', 200, '{"b":1}'), entry('http://h/a', 200, '{"a":2}')], 'run.har', []);
    expect((await pipeline.send(get('http://h/a'))).status).toBe(503);
    const second = await pipeline.send(get('http://h/a'));
    expect([second.status, second.body, second.headers['content-type']]).toEqual([200, { a: 2 }, 'application/json']);
    const third = pipeline.send(get('http://h/a'));
    await expect(third).rejects.toThrow(new ToolError('REPLAY_NO_MATCH', 'no recorded response for GET http://h/a in run.har: its 2 recorded responses were used by earlier requests'));
    await expect(pipeline.send({ method: 'POST', url: 'http://h/b', headers: {} })).rejects.toThrow('no recorded response for POST http://h/b in run.har: it recorded no such request');
  });

  it('matches a URL with a secret input masked as the recording masked it', async () => {
    const pipeline = replayPipeline([entry('http://h/a?q=***', 200, '{}')], 'run.har', ['secret-input-value']);
    expect((await pipeline.send(get('http://h/a?q=secret-input-value'))).status).toBe(200);
  });

  it('replays a request that got no response as the transport error it was', async () => {
    const pipeline = replayPipeline([{ ...entry('http://h/a', 0), error: 'timed out after 1 s: GET http://h/a' }], 'run.har', []);
    const failure = pipeline.send(get('http://h/a'));
    await expect(failure).rejects.toBeInstanceOf(TransportError);
    await expect(failure).rejects.toThrow('timed out after 1 s: GET http://h/a');
  });
});

describe('parseHar', () => {
  it('names the JSON pointer of what is missing', () => {
    expect(() => parseHar('{"log":{"entries":[{"request":{"method":"GET","url":"http://h/"},"response":{}}]}}', 'x.har')).toThrow('x.har: /log/entries/0/response/status: expected a whole number');
    expect(() => parseHar('[]', 'x.har')).toThrow('x.har: /log/entries: expected the array of entries of a HAR file');
  });

  it('reads base64 content and custom fields back', () => {
    const [one] = parseHar(JSON.stringify({ log: { entries: [{ time: 4, _transportRetries: 2, request: { method: 'get', url: 'http://h/' }, response: { status: 200, headers: [], content: { text: 'AAE=', encoding: 'base64' } } }] } }), 'x.har');
    expect(one).toMatchObject({ method: 'GET', status: 200, base64: true, text: 'AAE=', time: 4, retries: 2 });
  });
});

describe('mergeRecords', () => {
  it('pairs step runs with the record in order, keeping unrecorded runs and adding runs only the record knows of', () => {
    const runs = [run({ stepId: 'a' }), run({ stepId: 'b', ok: false, status: 503 }), run({ stepId: 'c', ok: false, status: 0, reason: 'aborted' })];
    const merged = mergeRecords(runs, [
      { stepId: 'a', status: 200, dryRun: false, outputs: { token: 'x', n: 1 } },
      { stepId: 'b', status: 503, dryRun: false, outputs: {}, failedVia: 'on-failure-goto' },
      { stepId: 'z', status: 0, dryRun: false, outputs: {} },
    ], {});
    expect(merged.map((r) => [r.run, r.stepId, r.failedVia])).toEqual([
      [1, 'a', undefined],
      [2, 'b', 'on-failure-goto'],
      [3, 'z', undefined],
      [4, 'c', undefined],
    ]);
    expect(merged[0]?.outputs).toEqual({ token: '***', n: 1 });
  });
});

describe('openOutputFile', () => {
  it('writes under a temporary name and renames it with mode 0600; a discarded file leaves nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-report-'));
    try {
      const kept = await openOutputFile('kept.json', dir, '--report');
      kept.write('{"a":');
      kept.write('1}');
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toHaveLength(1);
      await kept.commit();
      expect(readFileSync(join(dir, 'kept.json'), 'utf8')).toBe('{"a":1}');
      expect(statSync(join(dir, 'kept.json')).mode & 0o777).toBe(0o600);
      const dropped = await openOutputFile('dropped.json', dir, '--report');
      await dropped.discard();
      expect(readdirSync(dir)).toEqual(['kept.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
