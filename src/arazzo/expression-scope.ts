/** Where an expression sits, which decides what it may refer to. */
import type { ArazzoDocument, Workflow } from './model.js';

/**
 * `request`: parameters and request bodies (the step's response does not exist yet);
 * `response`: step outputs and criteria; `workflow`: workflow outputs (no current step);
 * `shared`: component actions, used by many workflows (step references cannot be checked).
 */
export type Phase = 'request' | 'response' | 'workflow' | 'shared';

export interface ExpressionScope {
  doc: ArazzoDocument;
  phase: Phase;
  workflow?: Workflow;
  /** Index of the step the expression belongs to; undefined at workflow level. */
  stepIndex?: number;
}
