import type { StepRecord } from '../../machines/types.js';

/** What `arazzo run` prints on stdout: the spec's run record. */
export interface RunRecord {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: StepRecord[];
}

/** Serialises the record as JSON (2-space indent) or YAML, ending with a newline. Binary values become base64 strings. */
export async function formatRecord(record: RunRecord, format: 'json' | 'yaml'): Promise<string> {
  const plain = { workflowId: record.workflowId, outputs: record.outputs, steps: record.steps.map(orderFields) };
  if (format === 'yaml') {
    const { stringify } = await import('yaml');
    return stringify(JSON.parse(JSON.stringify(plain, replacer)), { lineWidth: 0 });
  }
  return `${JSON.stringify(plain, replacer, 2)}\n`;
}

/** Fields in the spec's order; failedVia only when present. */
function orderFields(step: StepRecord): StepRecord {
  const ordered: StepRecord = { stepId: step.stepId, status: step.status, dryRun: step.dryRun, outputs: step.outputs };
  if (step.failedVia) ordered.failedVia = step.failedVia;
  return ordered;
}

function replacer(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
    return Buffer.from((value as { data: number[] }).data).toString('base64');
  }
  return typeof value === 'bigint' ? value.toString() : value;
}
