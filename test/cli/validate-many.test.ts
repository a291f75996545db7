/**
 * `tool arazzo validate <file>...` (docs/cli.md): several files and globs, each with its findings
 * and summary line, then a count; exit 10 when one is invalid, 2 when one cannot be read (the
 * others are still validated); globs the shell did not expand are expanded by tool.
 */
import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

const cwd = fileURLToPath(new URL('../fixtures/arazzo/', import.meta.url));
const validate = (...args: string[]) => runTool(['arazzo', 'validate', ...args], { cwd });

describe('tool arazzo validate with several files', () => {
  it('validates each, prints a summary line per file and a count, and exits 10 when one is invalid', async () => {
    const result = await validate('clean.arazzo.yaml', 'required-fields.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toContain('clean.arazzo.yaml: valid Arazzo 1.0.1');
    expect(result.stdout).toMatch(/required-fields\.arazzo\.yaml: .*not valid|required-fields\.arazzo\.yaml:\d+:\d+ error/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('2 files: 1 valid, 1 invalid');
  });

  it('expands a glob the shell did not, sorted', async () => {
    const result = await validate('clean.arazzo.*');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('clean.arazzo.json: valid');
    expect(result.stdout).toContain('clean.arazzo.yaml: valid');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('2 files: 2 valid, 0 invalid');
  });

  it('expands ** over any number of folders, zero included', async () => {
    const result = await runTool(['arazzo', 'validate', '**/clean.arazzo.yaml'], { cwd: fileURLToPath(new URL('../fixtures/', import.meta.url)) });
    expect(result.stdout).toContain('arazzo/clean.arazzo.yaml: valid');
  });

  it('goes on past a file it cannot read, says so on stderr, and exits 2', async () => {
    const result = await validate('missing.arazzo.yaml', 'clean.arazzo.yaml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing.arazzo.yaml');
    expect(result.stdout).toContain('clean.arazzo.yaml: valid');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('2 files: 1 valid, 0 invalid, 1 not read (see stderr)');
  });

  it('prints a JSON array of the records with --output json', async () => {
    const result = await validate('clean.arazzo.yaml', 'clean.arazzo.json', '--output', 'json');
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as Array<{ file: string; valid: boolean }>;
    expect(records.map((record) => [record.file, record.valid])).toEqual([['clean.arazzo.yaml', true], ['clean.arazzo.json', true]]);
  });

  it('refuses a glob that matches nothing (exit 2)', async () => {
    const result = await validate('nothing-*.arazzo.yaml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no file matches "nothing-*.arazzo.yaml"');
  });
});
