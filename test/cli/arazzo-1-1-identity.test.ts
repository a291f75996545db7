/**
 * Arazzo 1.1 identity-based references: a source url that equals the `$self` of a document the
 * run reads names that document; nothing is fetched from the url (example.com is not reachable
 * here, and the run sends nothing there).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();

beforeAll(() => {
  for (const fixture of ['arazzo-sources/self-lib.arazzo.yaml', 'arazzo-sources/lib.openapi.yaml']) h.ws.fixture(fixture, { BASE_URL: h.server.url });
});

describe('identity-based references (Arazzo 1.1 $self)', () => {
  it('resolves a source url to the document whose $self it is, read from its own location', async () => {
    const result = await h.run('arazzo-1-1-self.arazzo.yaml', [], { 'GET /lib/items/{id}': { body: { name: 'five' } } });
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/lib/items/5']);
    expect(JSON.parse(result.stdout).outputs).toEqual({ name: 'five' });
  });
});
