/**
 * Usage errors of `tool arazzo run`, in-process through runCli with collecting streams: each exits
 * 2 with the message and the command's usage on stderr, and nothing on stdout.
 */
import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

const cwd = fileURLToPath(new URL('../fixtures/run/', import.meta.url));
const run = (...args: string[]) => runTool(['arazzo', 'run', ...args], { cwd });
const USAGE = /tool arazzo run .*<file>/;

describe('tool arazzo run usage errors', () => {
  it.each([['abc'], ['1.5'], ['-3'], ['0'], [''], ['1e3'], [' 12x']])('rejects --tool-max-steps %p with exit 2 and the usage', async (value) => {
    const result = await run('state-success-end.arazzo.yaml', '--tool-max-steps', value);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('--tool-max-steps');
    expect(result.stderr).toMatch(USAGE);
  });

  it.each([['x'], ['-1'], ['21'], ['2.5']])('rejects --tool-retry %p with exit 2 and the usage', async (value) => {
    const result = await run('state-success-end.arazzo.yaml', '--tool-retry', value);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('--tool-retry');
    expect(result.stderr).toMatch(USAGE);
  });

  it.each([['0'], ['soon'], ['-1']])('rejects --tool-timeout %p with exit 2', async (value) => {
    const result = await run('state-success-end.arazzo.yaml', '--tool-timeout', value);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('--tool-timeout');
  });

  it('rejects --output xml with exit 2, naming the allowed formats, and shows the usage', async () => {
    const result = await run('state-success-end.arazzo.yaml', '--output', 'xml');
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/json.*yaml/);
    expect(result.stderr).toMatch(USAGE);
  });

  it('rejects an unknown flag with exit 2 and the usage', async () => {
    const result = await run('state-success-end.arazzo.yaml', '--no-such-flag');
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('--no-such-flag');
    expect(result.stderr).toMatch(USAGE);
  });

  it('rejects a missing file argument with exit 2 and the usage', async () => {
    const result = await run();
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(USAGE);
  });

  it.each([['q'], ['=x'], ['']])('rejects --input %p with exit 2, a hint and the usage', async (value) => {
    const result = await run('state-success-end.arazzo.yaml', '--input', value);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('key=value');
    expect(result.stderr).toMatch(USAGE);
  });

  it('rejects a file that does not exist with exit 2, naming it', async () => {
    const result = await run('no-such.arazzo.yaml');
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('no-such.arazzo.yaml');
  });

  it('lists every option of the spec in --help', async () => {
    const result = await run('--help');
    expect(result.code).toBe(0);
    for (const option of ['--input', '--workflow', '--dry-run', '--output', '--verbose', '--tool-max-steps', '--tool-retry', '--tool-timeout']) {
      expect(result.stdout).toContain(option);
    }
  });
});
