/** The v2 run record as tests read it: nested `steps`, `transfers`, `dependencies`, and a compact trail of it. */
import { expect } from '@jest/globals';
import { STACK_FRAME } from '../e2e/helpers/record.js';
import type { WorkspaceResult } from './run-in-workspace.js';

export interface V2Step {
  stepId: string;
  status: number;
  workflowId?: string;
  outputs: Record<string, unknown>;
  failedVia?: string;
  steps?: V2Step[];
  transfers?: unknown[];
}

export interface V2Record {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: V2Step[];
  transfers?: Array<{ from: string; stepId: string; to: string }>;
  dependencies?: Array<{ workflowId: string; outputs: Record<string, unknown>; steps: V2Step[] }>;
}

/** The record on stdout of a run that started (no stack trace on stderr). */
export function v2RecordOf(result: WorkspaceResult): V2Record {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  return JSON.parse(result.stdout) as V2Record;
}

/** `workflowId.stepId:status` of each step, nested calls in brackets. */
export function v2Trail(steps: V2Step[]): string[] {
  return steps.map((s) => `${s.workflowId}.${s.stepId}:${s.status}${s.steps ? `[${v2Trail(s.steps).join(' ')}]` : ''}`);
}
