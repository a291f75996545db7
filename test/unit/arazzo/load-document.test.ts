import { describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArazzoLoadError } from '../../../src/arazzo/errors.js';
import { loadDocument } from '../../../src/arazzo/load-document.js';
import { FIXTURES } from './fixtures.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

async function loadError(promise: Promise<unknown>): Promise<ArazzoLoadError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ArazzoLoadError) return error;
    throw error;
  }
  throw new Error('expected an ArazzoLoadError');
}

describe('loadDocument', () => {
  it('loads a YAML file relative to cwd and keeps the path as given', async () => {
    const doc = await loadDocument('clean.arazzo.yaml', { cwd: FIXTURES });
    expect(doc.file).toBe('clean.arazzo.yaml');
    expect(doc.absolutePath).toBe(join(FIXTURES, 'clean.arazzo.yaml'));
    expect(doc.model.workflows.map((w) => w.workflowId)).toEqual(['createAndRead', 'list']);
  });

  it('loads a JSON file', async () => {
    const doc = await loadDocument(join(FIXTURES, 'clean.arazzo.json'), { cwd: '/' });
    expect(doc.model.info?.title).toBe('JSON pets');
  });

  it('reports a missing file with exit 2 and where it looked', async () => {
    const error = await loadError(loadDocument('nope.arazzo.yaml', { cwd: FIXTURES }));
    expect(error.code).toBe('FILE_NOT_FOUND');
    expect(exitCodeFor(error.kind)).toBe(2);
    expect(error.message).toBe('nope.arazzo.yaml: no such file');
    expect(error.hint).toContain(join(FIXTURES, 'nope.arazzo.yaml'));
  });

  it('reports a directory with exit 2 and suggests documents inside it', async () => {
    const error = await loadError(loadDocument('.', { cwd: FIXTURES }));
    expect(error.code).toBe('IS_A_DIRECTORY');
    expect(exitCodeFor(error.kind)).toBe(2);
    expect(error.hint).toContain('./actions.arazzo.yaml');
  });

  it('refuses a file over the size limit with exit 2', async () => {
    const error = await loadError(loadDocument('clean.arazzo.yaml', { cwd: FIXTURES, maxBytes: 100 }));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(exitCodeFor(error.kind)).toBe(2);
    expect(error.message).toBe('clean.arazzo.yaml is larger than 100 bytes; refusing to load it');
  });

  it('accepts a file exactly at the size limit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arazzo-load-'));
    try {
      const text = 'arazzo: 1.0.1\n';
      await writeFile(join(dir, 'tiny.yaml'), text);
      const doc = await loadDocument('tiny.yaml', { cwd: dir, maxBytes: Buffer.byteLength(text) });
      expect(doc.model.arazzo).toBe('1.0.1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('passes parse errors through with exit 10', async () => {
    const error = await loadError(loadDocument('syntax-error.arazzo.yaml', { cwd: FIXTURES }));
    expect(error.code).toBe('YAML_SYNTAX');
    expect(exitCodeFor(error.kind)).toBe(10);
    expect(error.message).toMatch(/^syntax-error\.arazzo\.yaml:\d+:\d+: invalid YAML: /);
  });
});
