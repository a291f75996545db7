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
  /** The workflow's gotos to its own steps, by index (`from` -1: a workflow-level action, which any step may take). */
  jumps?: ReadonlyArray<{ from: number; to: number }>;
}

/**
 * The gotos of `workflow` to its own steps: a step's onSuccess/onFailure (also through
 * `$components` references) from that step, the workflow's successActions/failureActions from any.
 */
export function gotosOf(doc: ArazzoDocument, workflow: Workflow, stepIndexes: ReadonlyMap<string, number>): Array<{ from: number; to: number }> {
  const jumps: Array<{ from: number; to: number }> = [];
  const add = (from: number, entries: readonly unknown[] | undefined) => {
    for (const entry of entries ?? []) {
      const action = resolvedAction(doc, entry);
      const to = action?.type === 'goto' && typeof action.stepId === 'string' ? stepIndexes.get(action.stepId) : undefined;
      if (to !== undefined) jumps.push({ from, to });
    }
  };
  workflow.steps.forEach((step, index) => {
    add(index, step.onSuccess);
    add(index, step.onFailure);
  });
  add(-1, workflow.successActions);
  add(-1, workflow.failureActions);
  return jumps;
}

function resolvedAction(doc: ArazzoDocument, entry: unknown): { type?: unknown; stepId?: unknown } | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const reference = (entry as { reference?: unknown }).reference;
  if (typeof reference !== 'string') return entry as { type?: unknown; stepId?: unknown };
  const match = /^\$components\.(successActions|failureActions)\.(.+)$/.exec(reference);
  const section = match ? doc.components?.[match[1] as 'successActions' | 'failureActions'] : undefined;
  return section && Object.hasOwn(section, match![2]!) ? (section[match![2]!] as { type?: unknown; stepId?: unknown }) : undefined;
}

/** Whether step `referrer` can run again after step `target` (at or after it) has run: a goto from `target` or later (or a workflow-level one) back to `referrer` or before. */
export function canRevisit(jumps: ReadonlyArray<{ from: number; to: number }> | undefined, referrer: number, target: number): boolean {
  return (jumps ?? []).some((jump) => (jump.from === -1 || jump.from >= target) && jump.to <= referrer);
}

/** The index of the first step with each stepId in `workflow`. */
export function indexSteps(workflow: Workflow): ReadonlyMap<string, number> {
  const indexes = new Map<string, number>();
  workflow.steps.forEach((step, index) => {
    if (step.stepId !== undefined && !indexes.has(step.stepId)) indexes.set(step.stepId, index);
  });
  return indexes;
}
