import type { Judge, WorkflowContext } from '../../machines/types.js';
import { evaluateCondition, type ExpressionContext, type RequestData, type ResponseData } from '../expressions/index.js';
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

/**
 * The machine's judge over parsed criteria: an action applies when all its conditions hold. A
 * condition that cannot be evaluated (an ordering comparison on a non-number) does not hold.
 */
export function createJudge(criteria: CriteriaSet[], workflowOutputs: CompiledOutputs): Judge {
  return {
    criteriaHold(criteriaId, context) {
      const set = criteria[criteriaId];
      if (!set) return false;
      const ctx = expressionContext(context);
      try {
        return set.conditions.every((condition) => evaluateCondition(condition, ctx));
      } catch {
        return false;
      }
    },
    workflowOutputs(context) {
      return evaluateOutputs(workflowOutputs, { inputs: context.inputs, steps: context.steps, outputs: {} });
    },
  };
}
