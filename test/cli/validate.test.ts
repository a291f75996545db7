import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { runTool } from './run-tool.js';

const cwd = fileURLToPath(new URL('../fixtures/arazzo/', import.meta.url));
const validate = (...args: string[]) => runTool(['arazzo', 'validate', ...args], { cwd });

describe('tool arazzo validate', () => {
  it('reports a clean file on stdout with counts and exits 0', async () => {
    const result = await validate('clean.arazzo.yaml');
    expect(result).toEqual({
      code: 0,
      stdout: 'clean.arazzo.yaml: valid Arazzo 1.0.1 — 2 workflows, 1 source; all features are supported by the v1 runner\n',
      stderr: '',
    });
  });

  it('prints warnings like a compiler and still exits 0', async () => {
    const result = await validate('warnings.arazzo.yaml');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'warnings.arazzo.yaml:12:24 warning OPERATION_PATH_UNSUPPORTED step "byPath" uses operationPath, which the v1 runner does not support; the step fails at runtime, use operationId (runs with --tool-runner v2)',
      'warnings.arazzo.yaml:17:19 warning SUCCESS_CRITERION_SKIPPED jsonpath success criteria are not supported by the v1 runner; this criterion will be skipped (with a warning) at runtime (runs with --tool-runner v2)',
      'warnings.arazzo.yaml:19:21 warning NESTED_WORKFLOW_UNSUPPORTED step "nested" runs workflow "helper"; nested workflows are not supported by the v1 runner, so the step fails at runtime (runs with --tool-runner v2)',
      'warnings.arazzo.yaml: valid Arazzo 1.0.1 — 2 workflows, 1 source; 3 warnings: operationPath steps fail at runtime; regex/jsonpath/xpath success criteria are skipped; nested workflow steps fail at runtime',
      '',
    ]);
  });

  it('exits 10 when the document has errors', async () => {
    const result = await validate('no-workflows.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toBe(
      'no-workflows.arazzo.yaml:8:1 error NO_WORKFLOWS the document declares no workflows; add at least one under "workflows"\n' +
        'no-workflows.arazzo.yaml: 1 error; the document is not valid for the v1 runner\n',
    );
    expect(result.stderr).toBe('');
  });

  it('checks operationIds against a local source description', async () => {
    const result = await validate('operations.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toContain('operations.arazzo.yaml:14:22 error OPERATION_NOT_FOUND operation "getpet" is not in source "pets"');
  });

  it('reports a YAML syntax error on stderr with the position and a caret excerpt, exit 10', async () => {
    const result = await validate('syntax-error.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: syntax-error.arazzo.yaml:5:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n' +
        '  5 | workflows: []\n' +
        '    | ^\n',
    );
  });

  it('reports a document that is a list with exit 10', async () => {
    const result = await validate('list.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stderr).toContain('list.arazzo.yaml:1:1: the document is a list');
  });

  it('reports a missing file with exit 2 and where it looked', async () => {
    const result = await validate('missing.arazzo.yaml');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe('error: missing.arazzo.yaml: no such file');
    expect(result.stderr).toContain('Check the path');
  });

  it('reports a directory with exit 2 and suggests a document inside it', async () => {
    const result = await validate('.');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: . is a directory, not a workflow document');
    expect(result.stderr).toContain('./actions.arazzo.yaml');
  });

  it('rejects an unknown flag with exit 2, on stderr only', async () => {
    const result = await validate('clean.arazzo.yaml', '--strictly');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--strictly');
  });

  it('rejects an unknown --output format with exit 2', async () => {
    const result = await validate('clean.arazzo.yaml', '--output', 'xml');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/output/);
  });

  it('prints the findings as one JSON record with --output json', async () => {
    const result = await validate('warnings.arazzo.yaml', '--output', 'json');
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({ file: 'warnings.arazzo.yaml', valid: true, workflows: 2, sources: 1 });
    expect(record.findings).toEqual([
      expect.objectContaining({ code: 'OPERATION_PATH_UNSUPPORTED', severity: 'warning', pointer: '/workflows/0/steps/0/operationPath', line: 12, col: 24 }),
      expect.objectContaining({ code: 'SUCCESS_CRITERION_SKIPPED', severity: 'warning' }),
      expect.objectContaining({ code: 'NESTED_WORKFLOW_UNSUPPORTED', severity: 'warning' }),
    ]);
  });

  it('exits 10 with valid: false in JSON when there are errors', async () => {
    const result = await validate('duplicates.arazzo.yaml', '--output=json');
    expect(result.code).toBe(10);
    const record = JSON.parse(result.stdout) as { valid: boolean; findings: Array<{ code: string }> };
    expect(record.valid).toBe(false);
    expect(record.findings.map((f) => f.code)).toEqual(['DUPLICATE_SOURCE_NAME', 'DUPLICATE_STEP_ID', 'DUPLICATE_WORKFLOW_ID']);
  });

  it('colours the severity only when stdout is a terminal and colours are on', async () => {
    const plainTTY = await runTool(['arazzo', 'validate', 'no-workflows.arazzo.yaml'], { cwd, stdoutIsTTY: true, colors: false });
    expect(plainTTY.stdout).not.toContain('\u001b[');
    const piped = await runTool(['arazzo', 'validate', 'no-workflows.arazzo.yaml'], { cwd, stdoutIsTTY: false, colors: true });
    expect(piped.stdout).not.toContain('\u001b[');
    const coloured = await runTool(['arazzo', 'validate', 'no-workflows.arazzo.yaml'], { cwd, stdoutIsTTY: true, colors: true });
    expect(coloured.stdout).toContain('\u001b[31merror\u001b[39m NO_WORKFLOWS');
  });

  it('shows its usage with --help', async () => {
    const result = await validate('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tool arazzo validate');
    expect(result.stdout).toContain('--output');
  });
});
