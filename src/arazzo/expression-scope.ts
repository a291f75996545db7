/** Where an expression sits, which decides what it may refer to. */
import type { ArazzoDocument, Workflow } from './model.js';
import type { ParseMemo } from './parse-memo.js';
import type { RunnerProfile } from './runner-profile.js';

/**
 * `request`: parameters and request bodies (the step's response does not exist yet);
 * `response`: step outputs and criteria; `workflow`: workflow outputs (no current step);
 * `shared`: component actions, used by many workflows (step references cannot be checked).
 */
export type Phase = 'request' | 'response' | 'workflow' | 'shared';

export interface ExpressionScope {
  doc: ArazzoDocument;
  /** The runner profile the document is checked for: a construct it refuses is a warning in its words. */
  profile: RunnerProfile;
  phase: Phase;
  /** The validation's parsed expressions and conditions, shared by all scopes. */
  parsed: ParseMemo;
  workflow?: Workflow;
  /** Index of the step the expression belongs to; undefined at workflow level. */
  stepIndex?: number;
  /** Index of the first step with each stepId in `workflow`, so a reference is found without a scan. */
  stepIndexes?: ReadonlyMap<string, number>;
}

/** The index of the first step with each stepId in `workflow`. */
export function indexSteps(workflow: Workflow): ReadonlyMap<string, number> {
  const indexes = new Map<string, number>();
  workflow.steps.forEach((step, index) => {
    if (step.stepId !== undefined && !indexes.has(step.stepId)) indexes.set(step.stepId, index);
  });
  return indexes;
}
