import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

const cwd = fileURLToPath(new URL('../fixtures/arazzo/', import.meta.url));
const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A stdout that fails on the first write, to provoke an internal error inside a command. */
class BrokenStdout extends Writable {
  override write(): boolean {
    throw new Error('stdout exploded');
  }
}

describe('the CLI shell', () => {
  it('lists the commands with --help', async () => {
    const result = await runTool(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('arazzo validate');
    expect(result.stderr).toBe('');
  });

  it("prints package.json's version with --version", async () => {
    const result = await runTool(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
  });

  it('lists validate under `tool arazzo --help`', async () => {
    const result = await runTool(['arazzo', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}tool arazzo validate +check an Arazzo 1\.0\.x document/m);
  });

  it('rejects an unknown command with exit 2 on stderr', async () => {
    const result = await runTool(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toBe('');
  });

  it('reports an internal error as one line without a stack, and exits 70', async () => {
    const result = await runTool(['arazzo', 'validate', 'clean.arazzo.yaml'], { cwd, stdout: new BrokenStdout() });
    expect(result.code).toBe(70);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('internal error: stdout exploded');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('--debug');
  });

  it('prints the stack of an internal error with --debug', async () => {
    const result = await runTool(['--debug', 'arazzo', 'validate', 'clean.arazzo.yaml'], { cwd, stdout: new BrokenStdout() });
    expect(result.code).toBe(70);
    expect(result.stderr.split('\n')[0]).toBe('internal error: stdout exploded');
    expect(result.stderr).toMatch(/^\s+at /m);
  });

  it('prints the stack with TOOL_DEBUG=1 too', async () => {
    const result = await runTool(['arazzo', 'validate', 'clean.arazzo.yaml'], { cwd, stdout: new BrokenStdout(), env: { TOOL_DEBUG: '1' } });
    expect(result.stderr).toMatch(/^\s+at /m);
  });
});
