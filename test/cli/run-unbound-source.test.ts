/**
 * Sources that no configured API claims are synthetic: requests go out without credentials, a
 * warning at start carries the exact fix-it command, and a 401/403 fails the step with the spec's
 * unbound-source message.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();

describe('arazzo run: unbound (synthetic) sources', () => {
  it('warns at start with the exact command that binds the source, and sends no Authorization header', async () => {
    const result = await h.run('unbound-source.arazzo.yaml', [], { 'GET /a': {}, 'GET /secret': {}, 'GET /b': {} });
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['open:200', 'fetchSecret:200', 'after:200']);
    const lines = result.stderr.split('\n');
    const warning = lines.findIndex((line) => line.startsWith('warning:') && line.includes('"vault"'));
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(lines.slice(warning, warning + 2).join('\n')).toContain(`tool api add vault ${h.server.url} && tool auth login vault`);
    // The warning comes before the first progress line.
    expect(warning).toBeLessThan(lines.findIndex((line) => line.includes('/a')));
    expect(h.server.hits.every((hit) => hit.headers.authorization === undefined)).toBe(true);
  });

  it.each([401, 403])('fails the step on HTTP %i with a message naming the step and status, saying unbound, and how to fix it', async (status) => {
    const result = await h.run('unbound-source.arazzo.yaml', [], { 'GET /a': {}, 'GET /secret': { status }, 'GET /b': {} });
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['open:200', `fetchSecret:${status}`]);
    const failure = result.stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';
    expect(failure).toContain('fetchSecret');
    expect(failure).toContain(String(status));
    expect(failure).toContain('unbound');
    expect(failure).toContain('tool api add vault');
    expect(failure).toContain('tool auth login vault');
    expect(h.server.count('GET /b')).toBe(0);
  });

  it('exits 2 before any request when x-tool-api names an API that is not configured', async () => {
    const result = await h.run('unbound-unknown-api.arazzo.yaml', [], { 'GET /a': {} });
    expectNoRun(result, 2);
    expect(result.stderr).toContain('no-such-api');
    expect(result.stderr).toContain('tool api add no-such-api');
    expect(h.server.hits).toHaveLength(0);
  });
});
