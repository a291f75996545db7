/**
 * The report files at the edges of a run: an interrupted run writes them (the step in flight
 * included), a dry run reports its steps as skipped, and a document that never runs (invalid,
 * exit 10) leaves no file and no temporary file behind.
 */
import { describe, expect, it } from '@jest/globals';
import { DOMParser } from '@xmldom/xmldom';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './run-harness.js';
import { startInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();

const read = (name: string) => readFileSync(join(h.ws.dir, name), 'utf8');

describe('report files at the edges of a run', () => {
  it('are written for an interrupted run, with the request that was in flight', async () => {
    const file = h.ws.fixture('interrupt.arazzo.yaml', { BASE_URL: h.server.url });
    h.server.setRoutes({ 'GET /a': { body: { n: 2 } }, 'GET /slow': { delayMs: 30_000 }, 'GET /b': {} });
    const { exit: pending, controller } = startInWorkspace(['arazzo', 'run', file, '--tool-retry', '0', '--report', 'stopped.json', '--junit', 'stopped.xml', '--har', 'stopped.har'], h.ws.dir);
    while (!h.server.hits.some((hit) => hit.path === '/slow')) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await pending).toBe(130);
    const report = JSON.parse(read('stopped.json')) as { status: string; steps: Array<{ stepId: string; status: number; reason?: string }> };
    expect(report.status).toBe('interrupted');
    expect(report.steps.map((s) => [s.stepId, s.status])).toEqual([
      ['quick', 200],
      ['slow', 0],
    ]);
    expect(report.steps[1]?.reason).toMatch(/^aborted: GET /);
    const junit = new DOMParser().parseFromString(read('stopped.xml'), 'text/xml');
    expect(junit.getElementsByTagName('error')[0]?.getAttribute('type')).toBe('INTERRUPTED');
    const har = JSON.parse(read('stopped.har')) as { log: { entries: Array<{ response: { status: number; _error?: string } }> } };
    expect(har.log.entries.map((e) => e.response.status)).toEqual([200, 0]);
    expect(har.log.entries[1]?.response._error).toMatch(/^aborted: GET /);
  });

  it('report a dry run: each step with its request, skipped in JUnit, and no HAR entry', async () => {
    const result = await h.run('transport-get.arazzo.yaml', ['--dry-run', '--report', 'dry.json', '--junit', 'dry.xml', '--har', 'dry.har'], { 'GET /a': {} });
    expect(result.code).toBe(0);
    const report = JSON.parse(read('dry.json')) as { steps: Array<{ dryRun: boolean; request: { url: string } }> };
    expect(report.steps).toMatchObject([{ dryRun: true, request: { url: `${h.server.url}/a` } }]);
    expect(read('dry.xml')).toContain('<skipped message="dry run: nothing was sent"/>');
    expect((JSON.parse(read('dry.har')) as { log: { entries: unknown[] } }).log.entries).toEqual([]);
    expect(h.server.hits).toHaveLength(0);
  });

  it('are not written for a document that never runs, and leave no temporary file', async () => {
    const result = await h.run('invalid-unknown-operation.arazzo.yaml', ['--report', 'never.json', '--har', 'never.har']);
    expect(result.code).toBe(10);
    expect(existsSync(join(h.ws.dir, 'never.json'))).toBe(false);
    expect(readdirSync(h.ws.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
