import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { formatRecord } from '../../../src/run/run-record.js';

const TRICKY = ['yes', 'on', 'No', 'y', '2024-01-01', '2024-01-01T10:00:00Z', '1_000', '1:20', '0o17', '012', '~', 'null', '.inf', 'plain'];

describe('formatRecord as YAML', () => {
  it('quotes every string a YAML 1.1 or 1.2 reader would read as another type', async () => {
    const outputs = Object.fromEntries(TRICKY.map((value, i) => [`v${i}`, value]));
    const text = await formatRecord({ workflowId: 'w', outputs, steps: [] }, 'yaml');
    expect(text).not.toContain('%YAML');
    for (const version of ['1.1', '1.2'] as const) {
      expect(parse(text, { version }).outputs).toEqual(outputs);
    }
    expect(text).toContain('v13: plain');
  });

  it('keeps booleans and numbers plain', async () => {
    const text = await formatRecord({ workflowId: 'w', outputs: { ok: true, count: 3 }, steps: [{ stepId: 's', status: 200, dryRun: false, outputs: {} }] }, 'yaml');
    expect(text).toContain('ok: true');
    expect(text).toContain('count: 3');
    expect(text).toContain('status: 200');
  });
});
