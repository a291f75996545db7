import type { Judge, StepOutcome, WorkflowContext } from '../../machines/types.js';
import type { ExpressionContext, RequestData, ResponseData } from '../expressions/index.js';
import type { StepProgram } from './compile-steps.js';
import { evaluateCriteria, type CriteriaMiss } from './evaluate-criteria.js';
import { evaluateOutputs, type CompiledOutputs } from './output-values.js';

/** The expression context of the step being judged: workflow inputs, earlier steps, and this step's request and response. */
export function expressionContext(context: WorkflowContext): ExpressionContext {
  const data = context.last?.data as { request?: RequestData; response?: ResponseData } | undefined;
  return {
    inputs: context.inputs,
    steps: context.steps,
    request: data?.request,
    response: data?.response,
    statusCode: context.last?.statusCode,
    outputs: context.outputs,
  };
}

/**
 * The judge the machine asks about actions: whether the criteria of an action of the current step
 * (`programs[context.current].actionCriteria[criteriaId]`, by evaluateCriteria) hold for the step's
 * last outcome, and why they cannot be evaluated when they cannot (then the machine fails the step).
 * Each criteria set is evaluated once per outcome. It also evaluates the workflow's outputs.
 */
export function createActionJudge(programs: readonly StepProgram[], workflowOutputs: CompiledOutputs): Judge {
  // Per outcome and criteria set: the first miss, or null when all hold.
  const verdicts = new WeakMap<StepOutcome, Map<number, CriteriaMiss | null>>();
  /** The verdict on the last outcome; undefined when there is nothing to judge (which does not hold). */
  const judge = (criteriaId: number, context: WorkflowContext): CriteriaMiss | null | undefined => {
    const criteria = programs[context.current]?.actionCriteria[criteriaId];
    const last = context.last;
    if (!criteria || !last) return undefined;
    let cache = verdicts.get(last);
    const known = cache?.get(criteriaId);
    if (known !== undefined) return known;
    const verdict = evaluateCriteria(criteria, expressionContext(context)) ?? null;
    if (!cache) verdicts.set(last, (cache = new Map()));
    cache.set(criteriaId, verdict);
    return verdict;
  };
  return {
    criteriaHold: (criteriaId, context) => judge(criteriaId, context) === null,
    criteriaError(criteriaId, context) {
      const miss = judge(criteriaId, context);
      return miss?.error === undefined ? undefined : `${JSON.stringify(miss.criterion.source)}: ${miss.error}`;
    },
    workflowOutputs(context) {
      return evaluateOutputs(workflowOutputs, { inputs: context.inputs, steps: context.steps, outputs: {} });
    },
  };
}
