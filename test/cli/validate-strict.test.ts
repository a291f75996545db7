/**
 * `validate` never says "all features supported" about what it could not check: a local source
 * that cannot be read is a SOURCE_NOT_CHECKED warning naming it and why. `--strict` makes any
 * warning a failure (exit 10).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { makeWorkspace } from '../e2e/helpers/workspace.js';
import { runTool } from './run-tool.js';

const fixtures = fileURLToPath(new URL('../fixtures/arazzo/', import.meta.url));
const ws = makeWorkspace('tool-validate-strict-');
afterAll(() => ws.remove());

const DOC = (url: string) => `arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions:
  - { name: pets, url: ${url} }
workflows:
  - workflowId: main
    steps:
      - { stepId: a, operationId: listPets }
`;

describe('tool arazzo validate: sources it cannot read', () => {
  it('warns about a missing local source, naming it and why, and does not call the document fully supported', async () => {
    ws.write('missing-source.arazzo.yaml', DOC('./gone.openapi.yaml'));
    const result = await runTool(['arazzo', 'validate', 'missing-source.arazzo.yaml'], { cwd: ws.dir });
    expect(result.code).toBe(0);
    const [finding, summary] = result.stdout.split('\n');
    expect(finding).toMatch(/^missing-source\.arazzo\.yaml:4:\d+ warning SOURCE_NOT_CHECKED source "pets" \(\.\/gone\.openapi\.yaml\) cannot be read, so .* were not checked: .*file not found/);
    expect(summary).not.toContain('all features are supported');
  });

  it('warns about a local source that is not a valid description', async () => {
    ws.write('broken.openapi.yaml', 'openapi: [\n');
    ws.write('broken-source.arazzo.yaml', DOC('./broken.openapi.yaml'));
    const result = await runTool(['arazzo', 'validate', 'broken-source.arazzo.yaml', '--output', 'json'], { cwd: ws.dir });
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as { valid: boolean; findings: Array<{ code: string; severity: string; pointer: string }> };
    expect(record.findings.map((f) => `${f.severity} ${f.code}@${f.pointer}`)).toEqual(['warning SOURCE_NOT_CHECKED@/sourceDescriptions/0/url']);
  });

  it('says nothing about a remote source, which validate never fetches', async () => {
    ws.write('remote-source.arazzo.yaml', DOC('https://example.invalid/openapi.yaml'));
    const result = await runTool(['arazzo', 'validate', 'remote-source.arazzo.yaml'], { cwd: ws.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('SOURCE_NOT_CHECKED');
  });
});

describe('tool arazzo validate --strict', () => {
  it('exits 10 on warnings, with a summary that says why', async () => {
    const result = await runTool(['arazzo', 'validate', 'warnings.arazzo.yaml', '--strict'], { cwd: fixtures });
    expect(result.code).toBe(10);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('warnings.arazzo.yaml: 3 warnings; not valid with --strict, which makes warnings fail');
  });

  it('reports valid: false and strict: true in JSON', async () => {
    const result = await runTool(['arazzo', 'validate', 'warnings.arazzo.yaml', '--strict', '--output', 'json'], { cwd: fixtures });
    expect(result.code).toBe(10);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, strict: true });
  });

  it('exits 0 for a document without findings', async () => {
    const result = await runTool(['arazzo', 'validate', 'clean.arazzo.yaml', '--strict'], { cwd: fixtures });
    expect(result.code).toBe(0);
  });

  it('fails a document whose source could not be checked', async () => {
    ws.write('strict-missing-source.arazzo.yaml', DOC('./gone.openapi.yaml'));
    const result = await runTool(['arazzo', 'validate', 'strict-missing-source.arazzo.yaml', '--strict'], { cwd: ws.dir });
    expect(result.code).toBe(10);
  });
});
