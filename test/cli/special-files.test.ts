/**
 * Files a document or a flag names that are not regular files (a FIFO, a device) are refused at
 * once with exit 2, naming the file: opening a FIFO for reading would wait for a writer on a
 * thread of libuv's pool, so that neither Ctrl-C nor SIGTERM could end the process, and a device
 * such as /dev/zero never ends.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/arazzo/', import.meta.url));
let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tool-special-'));
  execFileSync('mkfifo', [join(dir, 'pipe.arazzo.yaml'), join(dir, 'pipe.har'), join(dir, 'pipe.json')]);
  copyFileSync(join(FIXTURES, 'clean.arazzo.yaml'), join(dir, 'clean.arazzo.yaml'));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tool = (...argv: string[]) => runTool(argv, { cwd: dir, env });

describe('files that are not regular files', () => {
  it.each([
    ['validate', ['arazzo', 'validate', 'pipe.arazzo.yaml']],
    ['run', ['arazzo', 'run', 'pipe.arazzo.yaml']],
    ['graph', ['arazzo', 'graph', 'pipe.arazzo.yaml']],
  ])('arazzo %s refuses a FIFO as the document at once, with exit 2', async (_command, argv) => {
    const result = await tool(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: pipe.arazzo.yaml is not a regular file (a FIFO, a device or a socket); refusing to read it');
  });

  it.each([['a FIFO', 'pipe.har'], ['a device', '/dev/zero']])('arazzo replay refuses %s as --from, with exit 2', async (_what, from) => {
    const result = await tool('arazzo', 'replay', 'clean.arazzo.yaml', '--from', from);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read the --from file ${from}: not a regular file (a FIFO, a device or a socket)`);
  });

  it('arazzo replay refuses a --from file over 256 MiB without reading it, with exit 2', async () => {
    // A sparse file: its size is past the limit, yet it takes no disk space and no time to make.
    writeFileSync(join(dir, 'huge.har'), '');
    truncateSync(join(dir, 'huge.har'), 256 * 1024 * 1024 + 1);
    const result = await tool('arazzo', 'replay', 'clean.arazzo.yaml', '--from', 'huge.har');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: cannot read the --from file huge.har: it is larger than 256 MiB, the most replay reads');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a direct call refuses a FIFO as its -d @file body, before sending anything', async () => {
    const result = await tool('post', 'http://127.0.0.1:9/never', '-d', '@pipe.json');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read the request body from ${join(dir, 'pipe.json')}: not a regular file`);
  });
});
