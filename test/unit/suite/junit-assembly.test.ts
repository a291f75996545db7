/**
 * The JUnit file put together from per-suite temporary files: more suites than open handles,
 * testcases interleaved across flushes, each suite's counts before its testcases, and nothing
 * left behind whether the file is written or discarded.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { openJunitAssembly } from '../../../src/cli/suite/junit-assembly.js';
import { testcaseXml } from '../../../src/cli/suite/suite-junit.js';

const SUITES = 20;
const RUNS = 400;

describe('openJunitAssembly', () => {
  it('groups interleaved testcases by suite, in order, with each suite counted, and removes its temporary files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-assembly-'));
    try {
      const junit = await openJunitAssembly('out.xml', dir, '--junit');
      // Long names: several flushes of the buffer, each touching more suites than there are open handles.
      for (let run = 1; run <= RUNS; run++) {
        for (let suite = 1; suite <= SUITES; suite++) {
          const status = run % 10 === 0 ? 'failed' : run % 7 === 0 ? 'skipped' : 'passed';
          junit.add(`doc-${suite}`, testcaseXml({ file: `doc-${suite}`, workflowId: `w${'x'.repeat(40)}`, row: run, status, durationMs: 2 }), status, 0.002);
        }
      }
      await junit.commit();
      expect(readdirSync(dir)).toEqual(['out.xml']);
      const doc = new DOMParser().parseFromString(readFileSync(join(dir, 'out.xml'), 'utf8'), 'text/xml');
      const suites = Array.from(doc.getElementsByTagName('testsuite'));
      expect(suites.map((s) => s.getAttribute('name'))).toEqual(Array.from({ length: SUITES }, (_, i) => `doc-${i + 1}`));
      for (const suite of suites) {
        expect(['tests', 'failures', 'skipped'].map((key) => suite.getAttribute(key))).toEqual([String(RUNS), '40', '52']);
        const rows = Array.from(suite.getElementsByTagName('testcase')).map((c) => Number(/\[row (\d+)\]/.exec(c.getAttribute('name')!)![1]));
        expect(rows).toEqual(Array.from({ length: RUNS }, (_, i) => i + 1));
      }
      expect(doc.documentElement!.getAttribute('tests')).toBe(String(RUNS * SUITES));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves nothing behind when discarded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-assembly-'));
    try {
      const junit = await openJunitAssembly('out.xml', dir, '--junit');
      junit.add('doc', testcaseXml({ file: 'doc', workflowId: 'w', status: 'passed', durationMs: 1 }), 'passed', 0.001);
      await junit.discard();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
