/**
 * The parsed index of a local description is found by the hash of its text, not by its path,
 * mtime and size: an edit restored to the same size and mtime (`cp -p`, `rsync -t`) is read afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/arazzo/', import.meta.url));
let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tool-index-'));
  for (const name of ['clean.arazzo.yaml', 'pets.openapi.yaml']) copyFileSync(join(FIXTURES, name), join(dir, name));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the parsed index of a local description', () => {
  it('is not reused for an edit of the same size and mtime', async () => {
    // A run reads its descriptions through the cache (validate reads local files afresh): this one
    // stops at binding (exit 2, no API "petstore"), after the document was found valid.
    const description = join(dir, 'pets.openapi.yaml');
    // Whole seconds, so that putting the time back gives exactly the mtime the cache saw.
    utimesSync(description, 1_700_000_000, 1_700_000_000);
    const run = () => runTool(['arazzo', 'run', 'clean.arazzo.yaml', '--workflow', 'createAndRead', '--dry-run'], { cwd: dir, env });
    expect((await run()).code).toBe(2);
    expect((await run()).code).toBe(2);
    const { size } = statSync(description);
    // getPet becomes getPut: same length, then the old times are put back.
    writeFileSync(description, readFileSync(description, 'utf8').replace('operationId: getPet', 'operationId: getPut'));
    utimesSync(description, 1_700_000_000, 1_700_000_000);
    expect(statSync(description).size).toBe(size);
    const edited = await run();
    expect(edited.code).toBe(10);
    expect(edited.stderr).toContain('getPet');
  });
});
