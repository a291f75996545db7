import type { Judge, StepOutcome, WorkflowContext } from '../../machines/types.js';
import { ConditionEvaluationError, evaluateCondition, type ExpressionContext, type RequestData, type ResponseData } from '../expressions/index.js';
import { evaluateOutputs, type CompiledOutputs } from './output-values.js';
import type { CriteriaSet } from './plan-workflow.js';

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

type Verdict = { holds: boolean; error?: string };

/**
 * The machine's judge over parsed criteria: an action applies when all its conditions hold. A
 * condition that cannot be evaluated (an ordering comparison on a non-number) is reported by
 * `criteriaError`, and the machine fails the step. Each criteria set is evaluated once per step outcome.
 */
export function createJudge(criteria: CriteriaSet[], workflowOutputs: CompiledOutputs): Judge {
  const verdicts = new WeakMap<StepOutcome, Map<number, Verdict>>();
  const judge = (criteriaId: number, context: WorkflowContext): Verdict => {
    const set = criteria[criteriaId];
    const last = context.last;
    if (!set || !last) return { holds: false };
    let cache = verdicts.get(last);
    const known = cache?.get(criteriaId);
    if (known) return known;
    const ctx = expressionContext(context);
    let verdict: Verdict = { holds: true };
    for (const [i, condition] of set.conditions.entries()) {
      try {
        if (!evaluateCondition(condition, ctx)) {
          verdict = { holds: false };
          break;
        }
      } catch (error) {
        if (!(error instanceof ConditionEvaluationError)) throw error;
        verdict = { holds: false, error: `${JSON.stringify(set.sources[i])}: ${error.message}` };
        break;
      }
    }
    if (!cache) verdicts.set(last, (cache = new Map()));
    cache.set(criteriaId, verdict);
    return verdict;
  };
  return {
    criteriaHold: (criteriaId, context) => judge(criteriaId, context).holds,
    criteriaError: (criteriaId, context) => judge(criteriaId, context).error,
    workflowOutputs(context) {
      return evaluateOutputs(workflowOutputs, { inputs: context.inputs, steps: context.steps, outputs: {} });
    },
  };
}
