/** Issue 12 §6: clipanion's parse errors in tool's words, `--debug` in the help, `--browser` in help and docs. */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('error:'));
}

describe('parse errors of a known command', () => {
  it('says an unknown option in one error line with the closest option, then the usage line', async () => {
    const result = await runTool(['arazzo', 'run', 'flow.yaml', '--inputs', 'a=1']);
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual(['error: unknown option "--inputs" (did you mean "--input"?)']);
    expect(result.stderr.split('\n')[1]).toMatch(/^Usage: tool arazzo run /);
    expect(result.stderr).not.toContain('Unknown Syntax Error');
  });

  it('says an option whose value reads as an option needs a value, and how to pass it', async () => {
    const result = await runTool(['arazzo', 'run', 'flow.yaml', '--tool-retry', '-1']);
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual([
      'error: option --tool-retry needs a value, and "-1" after it reads as an option; to give it as the value, write --tool-retry=-1',
    ]);
    expect(result.stderr.split('\n')[1]).toMatch(/^Usage: tool arazzo run /);
  });
});

describe('help', () => {
  it('lists the global --debug flag in tool --help', async () => {
    const result = await runTool(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Global options\n\n {2}--debug\n/);
  });

  it('shows --browser and --no-browser alike in auth login --help and docs/auth.md', async () => {
    const result = await runTool(['auth', 'login', '--help']);
    const docs = readFileSync(fileURLToPath(new URL('../../docs/auth.md', import.meta.url)), 'utf8');
    expect(result.stdout).toContain('--browser');
    expect(result.stdout).toContain('--no-browser');
    expect(docs).toContain('[--browser\\|--no-browser]');
  });
});
