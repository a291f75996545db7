/** The run record of a run with nested workflows, as tests read it: nested `steps`, `transfers`, `dependencies`, and a compact trail of it. */
import { expect } from '@jest/globals';
import { STACK_FRAME } from '../e2e/helpers/record.js';
import type { WorkspaceResult } from './run-in-workspace.js';

export interface NestedStep {
  stepId: string;
  status: number;
  workflowId?: string;
  outputs: Record<string, unknown>;
  failedVia?: string;
  steps?: NestedStep[];
  transfers?: unknown[];
}

export interface NestedRecord {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: NestedStep[];
  transfers?: Array<{ from: string; stepId: string; to: string }>;
  dependencies?: Array<{ workflowId: string; outputs: Record<string, unknown>; steps: NestedStep[] }>;
}

/** The record on stdout of a run that started (no stack trace on stderr). */
export function nestedRecordOf(result: WorkspaceResult): NestedRecord {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  return JSON.parse(result.stdout) as NestedRecord;
}

/** `workflowId.stepId:status` of each step, nested calls in brackets. */
export function nestedTrail(steps: NestedStep[]): string[] {
  return steps.map((s) => `${s.workflowId}.${s.stepId}:${s.status}${s.steps ? `[${nestedTrail(s.steps).join(' ')}]` : ''}`);
}
