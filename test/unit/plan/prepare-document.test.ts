import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../../src/arazzo/finding.js';
import { V1_PROFILE, V2_PROFILE } from '../../../src/arazzo/runner-profile.js';
import { styleFor } from '../../../src/output/style.js';
import { prepareDocument, type StderrGate } from '../../../src/plan/prepare-document.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/arazzo/', import.meta.url));
const SHARED = 'prepare-shared.arazzo.yaml';
const CLEAN = 'clean.arazzo.yaml';
const WARNINGS = 'warnings.arazzo.yaml';

class Collector extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const homes: string[] = [];
afterAll(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));

const base = { cwd: FIXTURES, env: {}, profile: V1_PROFILE };
const keepAll = () => true;
function stderrGate(consequence = 'nothing was sent', showWarnings = true): StderrGate & { stderr: Collector } {
  return { stderr: new Collector(), style: styleFor(false), consequence, showWarnings };
}

describe('prepareDocument', () => {
  it('stops at the findings with upTo findings, selecting no workflow (a document with several is fine)', async () => {
    const prepared = await prepareDocument({ ...base, file: CLEAN, findings: keepAll, upTo: 'findings' });
    expect(prepared.valid).toBe(true);
    expect(prepared.doc.model.workflows).toHaveLength(2);
    expect(prepared).not.toHaveProperty('workflow');
    expect(prepared).not.toHaveProperty('plan');
  });

  it('selects the --workflow with upTo workflow, and plans nothing', async () => {
    const prepared = await prepareDocument({ ...base, file: CLEAN, workflowId: 'list', findings: keepAll, upTo: 'workflow' });
    if (!prepared.valid) throw new Error('expected a valid document');
    expect(prepared.workflow.workflowId).toBe('list');
    expect(prepared).not.toHaveProperty('plan');
  });

  it('asks for --workflow when the document has several and none is named', async () => {
    await expect(prepareDocument({ ...base, file: CLEAN, findings: keepAll, upTo: 'workflow' })).rejects.toThrow('has 2 workflows; choose one with --workflow <id>');
  });

  it('plans the selected workflow with the criteria options of the profile with upTo plan', async () => {
    const prepared = await prepareDocument({ ...base, profile: V2_PROFILE, file: CLEAN, workflowId: 'createAndRead', findings: keepAll, upTo: 'plan' });
    if (!prepared.valid) throw new Error('expected a valid document');
    expect(prepared.plan.workflowId).toBe('createAndRead');
    expect(prepared.plan.steps).toHaveLength(2);
    expect(prepared.criteria.profile).toBe(V2_PROFILE);
  });

  it('reads no source description without `descriptions`', async () => {
    const findings: Finding[] = [];
    await prepareDocument({ ...base, file: SHARED, findings: (found) => (findings.push(...found), true), upTo: 'findings' });
    expect(findings.map((f) => f.code)).toEqual(['DUPLICATE_STEP_ID', 'OPERATION_PATH_UNSUPPORTED']);
  });

  it('validates with the loaders `descriptions` makes from the loaded document, and hands back what it made', async () => {
    const read: string[] = [];
    let documentSeen = '';
    const prepared = await prepareDocument({
      ...base,
      file: CLEAN,
      descriptions: (doc) => {
        documentSeen = doc.file;
        return { marker: 42, loadOperations: async (url: string) => (read.push(url), undefined) };
      },
      findings: keepAll,
      upTo: 'findings',
    });
    expect(documentSeen).toBe(CLEAN);
    expect(read).toContain('./pets.openapi.yaml');
    expect(prepared.valid && prepared.descriptions.marker).toBe(42);
  });

  it('runs afterValidation before the findings are reported, and stops there when it throws', async () => {
    const order: string[] = [];
    const prepare = prepareDocument({
      ...base,
      file: CLEAN,
      descriptions: () => ({
        afterValidation: () => {
          order.push('afterValidation');
          throw new Error('refused');
        },
      }),
      findings: () => (order.push('findings'), true),
      upTo: 'findings',
    });
    await expect(prepare).rejects.toThrow('refused');
    expect(order).toEqual(['afterValidation']);
  });

  it('prints the findings on stderr with the consequence, warnings included, and stops on an error', async () => {
    const gate = stderrGate('nothing was sent');
    const prepared = await prepareDocument({ ...base, file: SHARED, findings: gate, upTo: 'workflow' });
    expect(prepared.valid).toBe(false);
    expect(gate.stderr.text).toContain('error DUPLICATE_STEP_ID');
    expect(gate.stderr.text).toContain('warning OPERATION_PATH_UNSUPPORTED');
    expect(gate.stderr.text).toContain(`error: ${SHARED} is not a valid workflow document (1 error); nothing was sent.`);
  });

  it('leaves the warnings out with showWarnings false', async () => {
    const gate = stderrGate('nothing was drawn', false);
    await prepareDocument({ ...base, file: SHARED, findings: gate, upTo: 'plan' });
    expect(gate.stderr.text).not.toContain('warning');
    expect(gate.stderr.text).toContain('nothing was drawn.');
  });

  it('goes on after warnings alone, printing them', async () => {
    const gate = stderrGate();
    const prepared = await prepareDocument({ ...base, file: WARNINGS, workflowId: 'main', findings: gate, upTo: 'plan' });
    expect(prepared.valid).toBe(true);
    expect(gate.stderr.text).toContain('warning OPERATION_PATH_UNSUPPORTED');
  });

  it('sees the findings as a run of the selected workflow does (an error in another workflow is a warning)', async () => {
    const gate = stderrGate();
    const prepared = await prepareDocument({ ...base, file: 'prepare-unreached.arazzo.yaml', workflowId: 'fine', findings: gate, upTo: 'workflow' });
    expect(prepared.valid).toBe(true);
    expect(gate.stderr.text).toContain('warning DUPLICATE_STEP_ID stepId "list" is used twice in workflow "broken" (in workflow "broken", which this run does not reach)');
    const whole = await prepareDocument({ ...base, file: 'prepare-unreached.arazzo.yaml', workflowId: 'broken', findings: stderrGate(), upTo: 'workflow' });
    expect(whole.valid).toBe(false);
  });

  it('lets a report function decide, whatever the findings', async () => {
    const prepared = await prepareDocument({ ...base, file: CLEAN, findings: () => false, upTo: 'plan' });
    expect(prepared).toMatchObject({ valid: false, findings: [] });
  });

  it('keeps the parsed document in the store of the environment', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tool-prepare-'));
    homes.push(home);
    await prepareDocument({ ...base, env: { HOME: home }, file: CLEAN, findings: keepAll, upTo: 'findings' });
    const documents = join(home, '.cache', 'tool', 'descriptions', 'documents');
    expect(existsSync(documents) && readdirSync(documents).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  });
});
