import type { DependencyRecord, StepRecord, Transfer } from '../../machines/types.js';
import { isStackOverflow, stringifyJson, type JsonReplacer } from '../expressions/stringify-json.js';
import { valueMasker } from '../output/redact.js';

/** What `arazzo run` prints on stdout: the spec's run record. */
export interface RunRecord {
  workflowId: string;
  /** How the run ended: `failed` also for an interrupted run. Additive to the contracts' record (docs/run.md). */
  status?: 'succeeded' | 'failed';
  /** Why a failed run failed: the step (when one), a code and the message stderr ends with. */
  failure?: RecordFailure;
  outputs: Record<string, unknown>;
  steps: StepRecord[];
  /** v2: gotos that moved the run to another workflow. */
  transfers?: Transfer[];
  /** v2: the workflows dependsOn ran first. */
  dependencies?: DependencyRecord[];
}

export interface RecordFailure {
  /** The workflow that failed, when it is not the record's (a dependency, a transfer's target). */
  workflowId?: string;
  stepId?: string;
  code: string;
  message: string;
}

/**
 * Serialises the record as JSON (2-space indent) or YAML, ending with a newline. Binary values
 * become base64 strings. Outputs of any depth print: a record too deep for the YAML printer is
 * printed as JSON, which is also YAML. `credentials` (what the bound APIs' auth sent) are shown
 * as `***` wherever a string holds them, in any encoding: a server that echoes a request's
 * headers must not put them into a record that CI logs keep.
 */
export async function formatRecord(record: RunRecord, format: 'json' | 'yaml', credentials: Iterable<string> = []): Promise<string> {
  const replacer = recordReplacer(valueMasker(credentials));
  const plain: Record<string, unknown> = { workflowId: record.workflowId };
  if (record.status) plain.status = record.status;
  if (record.failure) plain.failure = record.failure;
  plain.outputs = record.outputs;
  plain.steps = record.steps.map(orderFields);
  if (record.transfers) plain.transfers = record.transfers;
  if (record.dependencies) plain.dependencies = record.dependencies.map(dependencyFields);
  if (format === 'yaml') {
    const { Document, visit } = await import('yaml');
    try {
      // YAML 1.1 rules quote the strings a 1.1 reader would retype (yes, on, 2024-01-01, 1_000, 1:20);
      // a 1.2 octal such as 0o17 is the one plain form 1.1 does not know, so it is quoted by hand.
      const doc = new Document(JSON.parse(stringifyJson(plain, replacer) as string), { version: '1.1' });
      visit(doc, {
        Scalar(_key, node) {
          if (typeof node.value === 'string' && OCTAL_1_2.test(node.value)) node.type = 'QUOTE_DOUBLE';
        },
      });
      return doc.toString({ lineWidth: 0 });
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
    }
  }
  return `${stringifyJson(plain, replacer, 2)}\n`;
}

const OCTAL_1_2 = /^[-+]?0o[0-7]+$/;

/** Fields in the spec's order; failedVia only when present. */
function orderFields(step: StepRecord): StepRecord {
  const ordered: StepRecord = { stepId: step.stepId, status: step.status, dryRun: step.dryRun, outputs: step.outputs };
  if (step.failedVia) ordered.failedVia = step.failedVia;
  if (step.workflowId !== undefined) ordered.workflowId = step.workflowId;
  if (step.steps) ordered.steps = step.steps.map(orderFields);
  if (step.transfers) ordered.transfers = step.transfers;
  if (step.dependencies) ordered.dependencies = step.dependencies.map(dependencyFields);
  return ordered;
}

/** A dependency's entry: its id, outputs and steps, and its transfers when it made any. */
function dependencyFields(dependency: DependencyRecord): DependencyRecord {
  const ordered: DependencyRecord = { workflowId: dependency.workflowId, outputs: dependency.outputs, steps: dependency.steps.map(orderFields) };
  if (dependency.transfers) ordered.transfers = dependency.transfers;
  return ordered;
}

function recordReplacer(mask: (text: string) => string): JsonReplacer {
  return (_key, value) => {
    if (typeof value === 'string') return mask(value);
    if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
      return Buffer.from((value as { data: number[] }).data).toString('base64');
    }
    return typeof value === 'bigint' ? value.toString() : value;
  };
}
