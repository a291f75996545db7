/** `--trace <file>` holds the URLs and statuses of a run's requests: a new trace file is readable by its owner only. */
import { describe, expect, it } from '@jest/globals';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRunHarness } from './helpers/harness.js';
import { recordOf } from './helpers/record.js';

const h = useRunHarness();
const ROUTES = { 'GET /a': { body: { value: 1 } }, 'GET /b': {}, 'GET /c': {} };
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the --trace file', () => {
  it('is created with mode 0600', async () => {
    const result = await h.run('state-failure-no-action.arazzo.yaml', ['--trace', 'new.ndjson'], ROUTES);
    expect(result.code).toBe(0);
    recordOf(result);
    expect(modeOf(join(h.ws.dir, 'new.ndjson'))).toBe(0o600);
  }, 30_000);

  it('keeps the mode of a file that already exists (never widened)', async () => {
    const path = join(h.ws.dir, 'existing.ndjson');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o400 | 0o200);
    const result = await h.run('state-failure-no-action.arazzo.yaml', ['--trace', 'existing.ndjson'], ROUTES);
    expect(result.code).toBe(0);
    expect(modeOf(path)).toBe(0o600);
    chmodSync(path, 0o640);
    await h.run('state-failure-no-action.arazzo.yaml', ['--trace', 'existing.ndjson'], ROUTES);
    expect(modeOf(path)).toBe(0o640);
  }, 30_000);
});
