import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../../src/arazzo/finding.js';
import { formatFinding, formatSummary } from '../../../src/arazzo/format-finding.js';
import { styleFor } from '../../../src/output/style.js';
import { loadFixture } from './fixtures.js';

const error: Finding = { code: 'NO_WORKFLOWS', severity: 'error', message: 'no workflows', pointer: '/workflows', line: 8, col: 1 };
const warning: Finding = { code: 'OPERATION_PATH_UNSUPPORTED', severity: 'warning', message: 'operationPath', pointer: '/x', line: 3, col: 14 };

describe('formatFinding', () => {
  it('writes file:line:col severity CODE message', () => {
    expect(formatFinding(error, 'flow.yaml', styleFor(false))).toBe('flow.yaml:8:1 error NO_WORKFLOWS no workflows');
    expect(formatFinding(warning, 'flow.yaml', styleFor(false))).toBe('flow.yaml:3:14 warning OPERATION_PATH_UNSUPPORTED operationPath');
  });

  it('writes just the file when the finding has no position', () => {
    const { line: _line, col: _col, ...unplaced } = error;
    expect(formatFinding(unplaced, 'flow.yaml', styleFor(false))).toBe('flow.yaml error NO_WORKFLOWS no workflows');
  });

  it('colours only the severity when colours are on', () => {
    expect(formatFinding(error, 'f', styleFor(true))).toBe('f:8:1 \u001b[31merror\u001b[39m NO_WORKFLOWS no workflows');
    expect(formatFinding(warning, 'f', styleFor(true))).toContain('\u001b[33mwarning\u001b[39m OPERATION_PATH_UNSUPPORTED');
  });
});

describe('formatSummary', () => {
  it('says a clean document is valid, with its version and counts', async () => {
    const doc = await loadFixture('clean.arazzo.yaml');
    expect(formatSummary(doc, [])).toBe('clean.arazzo.yaml: valid Arazzo 1.0.1 — 2 workflows, 1 source; all features are supported by the v1 runner');
  });

  it('with warnings only, says the document is valid and what happens at runtime', async () => {
    const doc = await loadFixture('clean.arazzo.json');
    expect(formatSummary(doc, [warning, { ...warning, code: 'SUCCESS_CRITERION_SKIPPED' }])).toBe(
      'clean.arazzo.json: valid Arazzo 1.0.1 — 1 workflow, 1 source; 2 warnings: operationPath steps fail at runtime; regex/jsonpath/xpath success criteria are skipped',
    );
  });

  it('with errors, counts errors and warnings and says the document is not valid', async () => {
    const doc = await loadFixture('clean.arazzo.yaml');
    expect(formatSummary(doc, [error, warning])).toBe('clean.arazzo.yaml: 1 error, 1 warning; the document is not valid for the v1 runner');
    expect(formatSummary(doc, [error, error])).toBe('clean.arazzo.yaml: 2 errors; the document is not valid for the v1 runner');
  });
});
