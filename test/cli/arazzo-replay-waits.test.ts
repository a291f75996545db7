/**
 * `arazzo replay` sends nothing, so it neither waits out retry delays (an action's `retryAfter`, a
 * recorded Retry-After header) nor warns that a source's requests are sent without credentials.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();

interface Har {
  log: { entries: Array<{ response: { status: number; headers: Array<{ name: string; value: string }> } }> };
}

describe('arazzo replay: nothing is sent, so nothing is waited for', () => {
  it('skips retryAfter and Retry-After waits and gives the same record', async () => {
    const fast = h.ws.fixture('replay-waits.arazzo.yaml', { RETRY_AFTER: '0' }, 'fast.arazzo.yaml');
    h.server.setRoutes({ 'GET /items/{id}': [{ status: 503 }, { body: { name: 'Rex' } }] });
    const recorded = await runInWorkspace(['arazzo', 'run', fast, '--tool-retry', '0', '--har', 'run.har'], { cwd: h.ws.dir });
    expect(recorded.code).toBe(0);
    expect(recorded.stderr).toContain('sent without credentials');
    // The recorded 503 now asks for 30 s, and the replayed document for 20 s.
    const harPath = join(h.ws.dir, 'run.har');
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har;
    const busy = har.log.entries.find((entry) => entry.response.status === 503)!;
    busy.response.headers.push({ name: 'Retry-After', value: '30' });
    writeFileSync(harPath, JSON.stringify(har));
    const slow = h.ws.fixture('replay-waits.arazzo.yaml', { RETRY_AFTER: '20' }, 'slow.arazzo.yaml');

    const started = Date.now();
    const replayed = await runInWorkspace(['arazzo', 'replay', slow, '--from', 'run.har'], { cwd: h.ws.dir, timeoutMs: 60_000 });
    const tookMs = Date.now() - started;
    expect(replayed.code).toBe(0);
    expect(tookMs).toBeLessThan(10_000);
    expect(recordOf(replayed)).toEqual(recordOf(recorded));
    expect(replayed.stderr).not.toContain('sent without credentials');
    expect(replayed.stderr).not.toContain('is not bound to a configured API');
  }, 70_000);
});
