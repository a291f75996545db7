/**
 * Arazzo versions under v2: 1.0.0 and 1.0.1 documents run; a 1.1.x document is refused (exit 10)
 * as not yet supported. v1 reads 1.0.x as it always did.
 */
import { describe, expect, it } from '@jest/globals';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace } from './run-in-workspace.js';

const h = useRunHarness();
const ROUTES = { 'GET /a': {} };

describe('the arazzo version under --tool-runner v2', () => {
  it.each([['1.0.0'], ['1.0.1']])('runs an Arazzo %s document, in v2 and in v1', async (version) => {
    for (const runner of ['v2', 'v1']) {
      const result = await h.run('v2-version.arazzo.yaml', ['--tool-runner', runner], ROUTES, { vars: { ARAZZO: version } });
      expect(result.code).toBe(0);
      expect(trail(recordOf(result))).toEqual(['first:200']);
    }
  });

  it('refuses an Arazzo 1.1.0 document as not yet supported (exit 10, nothing sent)', async () => {
    const run = await h.run('v2-version.arazzo.yaml', ['--tool-runner', 'v2'], ROUTES, { vars: { ARAZZO: '1.1.0' } });
    expectNoRun(run, 10);
    expect(run.stderr).toContain('error UNSUPPORTED_VERSION arazzo version "1.1.0" (Arazzo 1.1) is not yet supported by the v2 runner in this version; it reads Arazzo 1.0.x documents ("1.0.0", "1.0.1")');
    expect(h.server.hits).toHaveLength(0);

    const file = h.ws.fixture('v2-version.arazzo.yaml', { ARAZZO: '1.1.0' });
    const validate = await runInWorkspace(['arazzo', 'validate', file, '--tool-runner', 'v2'], { cwd: h.ws.dir });
    expect(validate.code).toBe(10);
    expect(validate.stdout).toContain('is not yet supported by the v2 runner in this version');
  });

  it('keeps v1 as it was for 1.1.0: an unsupported version (exit 10)', async () => {
    const run = await h.run('v2-version.arazzo.yaml', [], ROUTES, { vars: { ARAZZO: '1.1.0' } });
    expectNoRun(run, 10);
    expect(run.stderr).toContain('arazzo version "1.1.0" is not supported; this runner reads Arazzo 1.0.x (e.g. "1.0.1")');
  });
});
