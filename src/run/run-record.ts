import type { StepRecord } from '../../machines/types.js';
import { stringifyJson } from '../expressions/stringify-json.js';

/** What `arazzo run` prints on stdout: the spec's run record. */
export interface RunRecord {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: StepRecord[];
}

/**
 * Serialises the record as JSON (2-space indent) or YAML, ending with a newline. Binary values
 * become base64 strings. Outputs of any depth print: a record too deep for the YAML printer is
 * printed as JSON, which is also YAML.
 */
export async function formatRecord(record: RunRecord, format: 'json' | 'yaml'): Promise<string> {
  const plain = { workflowId: record.workflowId, outputs: record.outputs, steps: record.steps.map(orderFields) };
  if (format === 'yaml') {
    const { stringify } = await import('yaml');
    try {
      return stringify(JSON.parse(stringifyJson(plain, replacer) as string), { lineWidth: 0 });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return `${stringifyJson(plain, replacer, 2)}\n`;
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
