/** A token a step sends in its own Authorization header (from an input) is masked when the server echoes it. */
import { describe, expect, it } from '@jest/globals';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const TOKEN = 'step-own-t0ken-value';

describe('a step that sends its own Authorization header', () => {
  it('never shows the token, even when the server echoes it in the failure body', async () => {
    const result = await h.run('own-authorization.arazzo.yaml', ['--input', `bearer=${TOKEN}`], {
      'GET /a': (hit: { headers: Record<string, string | string[] | undefined> }) => ({ status: 401, body: { error: `bad token ${String(hit.headers.authorization).slice(7)}` } }),
    });
    expect(result.code).toBe(1);
    expect(h.server.hits[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result.stderr).toContain('bad token');
    expect(result.stderr).not.toContain(TOKEN);
  });
});
