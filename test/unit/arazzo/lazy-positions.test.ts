/** Positions are computed only when a finding or warning needs them, and then as before. */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedDocument, Position } from '../../../src/arazzo/model.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import { FIXTURES } from './fixtures.js';

/** The fixture with a `locate` that records each pointer it is asked for. */
function counted(name: string): { doc: LoadedDocument; asked: string[] } {
  const doc = parseDocumentText(readFileSync(join(FIXTURES, name), 'utf8'), name, join(FIXTURES, name));
  const asked: string[] = [];
  const locate = (pointer: string): Position | undefined => {
    asked.push(pointer);
    return doc.locate(pointer);
  };
  return { doc: { ...doc, locate }, asked };
}

describe('lazy positions', () => {
  it('validates a clean document without asking for a single position', async () => {
    const { doc, asked } = counted('clean.arazzo.yaml');
    expect(await validateDocument(doc)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('asks once per returned finding and puts line and col on each', async () => {
    const { doc, asked } = counted('warnings.arazzo.yaml');
    const findings = await validateDocument(doc);
    expect(asked.sort()).toEqual(findings.map((f) => f.pointer).sort());
    expect(findings.map((f) => [f.code, f.line, f.col])).toEqual([
      ['OPERATION_PATH_UNSUPPORTED', 12, 24],
      ['SUCCESS_CRITERION_SKIPPED', 17, 19],
      ['NESTED_WORKFLOW_UNSUPPORTED', 19, 21],
    ]);
  });

  it('locates pointers in a JSON document read by JSON.parse', () => {
    const doc = parseDocumentText('{\n  "arazzo": "1.0.1",\n  "workflows": [\n    { "workflowId": "w" }\n  ]\n}\n', 'doc.json', '/doc.json');
    expect(doc.locate('/workflows/0/workflowId')).toEqual({ line: 4, col: 21 });
    expect(doc.locate('/workflows/0/missing')).toEqual({ line: 4, col: 5 });
    expect(doc.locate('')).toEqual({ line: 1, col: 1 });
  });
});
