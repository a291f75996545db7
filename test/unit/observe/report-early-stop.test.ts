/**
 * The report files of a run that stopped before its first request (openRunReports().stopped()):
 * the error and the findings, with every known secret masked and control characters dropped.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunReports } from '../../../src/observe/report/run-reports.js';

describe('the reports of a run that stopped early', () => {
  it('mask the --input-env values and drop control characters in the error, its hint and its findings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-early-stop-'));
    try {
      const reports = await openRunReports({ file: 'flow.arazzo.yaml', secretInputs: ['pet-Secret-91f2'], reports: { report: 'run.json', junit: 'run.xml', har: 'run.har' } }, dir);
      await reports.stopped({
        status: 'usage-error',
        error: {
          code: 'INVALID_INPUTS',
          message: 'input "petId" got pet-Secret-91f2\u001b[31m',
          hint: 'not pet-Secret-91f2',
          findings: [{ code: 'MISSING_FIELD', severity: 'error', message: 'near pet-Secret-91f2', pointer: '/info', file: 'flow.arazzo.yaml', line: 2, col: 1 }],
        },
      });
      await reports.stopped({ status: 'internal-error', error: { code: 'INTERNAL', message: 'written once only' } });
      await reports.close();
      const report = readFileSync(join(dir, 'run.json'), 'utf8');
      const junit = readFileSync(join(dir, 'run.xml'), 'utf8');
      for (const text of [report, junit]) {
        expect(text).toContain('INVALID_INPUTS');
        expect(text).not.toContain('Secret-91f2');
        expect(text).not.toContain('\u001b');
        expect(text).not.toContain('written once only');
      }
      expect(JSON.parse(report)).toMatchObject({ status: 'usage-error', workflowId: '', steps: [], stepRuns: 0, error: { findings: [{ message: 'near ***' }] } });
      expect(junit).toContain('<testcase name="workflow flow.arazzo.yaml"');
      expect(JSON.parse(readFileSync(join(dir, 'run.har'), 'utf8'))).toMatchObject({ log: { entries: [] } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
