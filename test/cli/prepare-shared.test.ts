/**
 * `run`, `replay`, `validate` and `graph` prepare a document through one function
 * (src/plan/prepare-document.ts), so one invalid document gets the same finding lines from each;
 * what differs is what each command says it did not do, and where the findings go.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool, type ToolResult } from './run-tool.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE = 'test/fixtures/arazzo/prepare-shared.arazzo.yaml';
const ERROR = `${FILE}:13:17 error DUPLICATE_STEP_ID stepId "list" is used twice in workflow "main"`;
const WARNING = `${FILE}:16:24 warning OPERATION_PATH_UNSUPPORTED`;

let dir: string;
const results: Record<'run' | 'replay' | 'validate' | 'graph', ToolResult> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tool-prepare-'));
  const har = join(dir, 'empty.har');
  writeFileSync(har, '{"log":{"entries":[]}}');
  const tool = (args: string[]) => runTool(['arazzo', ...args], { cwd: ROOT });
  results.run = await tool(['run', FILE]);
  results.replay = await tool(['replay', FILE, '--from', har]);
  results.validate = await tool(['validate', FILE]);
  results.graph = await tool(['graph', FILE]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one preparation of the document for run, replay, validate and graph', () => {
  it('exits 10 from each command', () => {
    expect(Object.values(results).map((r) => r.code)).toEqual([10, 10, 10, 10]);
  });

  it('words the error the same in each command', () => {
    expect(results.validate.stdout.split('\n')).toContain(ERROR);
    for (const r of [results.run, results.replay, results.graph]) expect(r.stderr.split('\n')).toContain(ERROR);
  });

  it('ends the error with what the command did not do', () => {
    const summary = (consequence: string) => `error: ${FILE} is not a valid workflow document (1 error); ${consequence}.\n  Run \`tool arazzo validate ${FILE}\` for details.\n`;
    expect(results.run.stderr).toContain(summary('nothing was sent'));
    expect(results.replay.stderr).toBe(results.run.stderr);
    expect(results.graph.stderr).toBe(`${ERROR}\n${summary('nothing was drawn')}`);
  });

  it('prints the warnings in run and replay, not in graph, and everything on stdout in validate', () => {
    expect(results.run.stderr).toContain(WARNING);
    expect(results.graph.stderr).not.toContain('warning');
    expect(results.validate.stdout).toContain(WARNING);
    expect(results.validate.stderr).toBe('');
    for (const r of [results.run, results.replay, results.graph]) expect(r.stdout).toBe('');
  });
});
