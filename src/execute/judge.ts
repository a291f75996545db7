import type { Judge, StepOutcome, WorkflowContext } from '../../machines/types.js';
import type { ExpressionContext, RequestData, ResponseData } from '../expressions/context.js';
import type { DocumentScope, StepProgram } from '../plan/compile-steps.js';
import { evaluateCriteria, type CriteriaMiss } from '../plan/evaluate-criteria.js';
import { evaluateWorkflowOutputs, type CompiledOutputs } from '../plan/output-values.js';
import { workflowsIn } from '../plan/workflows-view.js';
import { codeSpan } from '../output/code-span.js';
import { renderTemplate } from '../expressions/render-template.js';
import { UnresolvedExpressionError } from '../expressions/errors.js';

/** The expression context of the step being judged: workflow inputs, earlier steps, and this step's request and response. */
export function expressionContext(context: WorkflowContext, scope?: DocumentScope, last: StepOutcome | undefined = context.last): ExpressionContext {
  const data = last?.data as { request?: RequestData; response?: ResponseData; message?: ExpressionContext['message'] } | undefined;
  return {
    inputs: context.inputs,
    steps: context.steps,
    workflows: workflowsIn(scope?.workflowKeys, context.run?.workflows),
    sourceDescriptions: scope?.sourceDescriptions,
    components: scope?.components,
    self: scope?.self,
    request: data?.request,
    response: data?.response,
    // Arazzo 1.1: an asynchronous step's message, for its actions' criteria.
    message: data?.message,
    statusCode: last?.statusCode,
    outputs: context.outputs,
  };
}

/**
 * The judge the machine asks about actions: whether the criteria of an action of the current step
 * (`programs[context.current].actionCriteria[criteriaId]`, by evaluateCriteria) hold for the step's
 * outcome (the `runStep.done` event's, or `context.last`), and why they cannot be evaluated when they cannot (then the machine fails the step).
 * Each criteria set is evaluated once per outcome. It also evaluates the workflow's outputs.
 */
export function createActionJudge(programs: readonly StepProgram[], workflowOutputs: CompiledOutputs): Judge {
  // Per outcome and criteria set: the first miss, or null when all hold.
  const verdicts = new WeakMap<StepOutcome, Map<number, CriteriaMiss | null>>();
  /** The verdict on the last outcome; undefined when there is nothing to judge (which does not hold). */
  const judge = (criteriaId: number, context: WorkflowContext, outcome: StepOutcome | undefined): CriteriaMiss | null | undefined => {
    const criteria = programs[context.current]?.actionCriteria[criteriaId];
    const last = outcome ?? context.last;
    if (!criteria || !last) return undefined;
    let cache = verdicts.get(last);
    const known = cache?.get(criteriaId);
    if (known !== undefined) return known;
    const verdict = evaluateCriteria(criteria, expressionContext(context, programs[context.current]?.scope, last)) ?? null;
    if (!cache) verdicts.set(last, (cache = new Map()));
    cache.set(criteriaId, verdict);
    return verdict;
  };
  return {
    criteriaHold: (criteriaId, context, outcome) => judge(criteriaId, context, outcome) === null,
    criteriaError(criteriaId, context, outcome) {
      const miss = judge(criteriaId, context, outcome);
      return miss?.error === undefined ? undefined : `${codeSpan(miss.criterion.source)}: ${miss.error}`;
    },
    actionInputs(inputsId, context, outcome) {
      const program = programs[context.current];
      const parameters = program?.actionInputs?.[inputsId] ?? [];
      const ctx = expressionContext(context, program?.scope, outcome ?? context.last);
      const inputs: Record<string, unknown> = {};
      for (const { name, value } of parameters) {
        try {
          // defineProperty: an input named "__proto__" is data.
          Object.defineProperty(inputs, name, { value: renderTemplate(value, ctx), enumerable: true, writable: true, configurable: true });
        } catch (error) {
          if (!(error instanceof UnresolvedExpressionError)) throw error;
        }
      }
      return inputs;
    },
    workflowOutputs(context) {
      const scope = programs[0]?.scope;
      return evaluateWorkflowOutputs(workflowOutputs, { inputs: context.inputs, steps: context.steps, workflows: workflowsIn(scope?.workflowKeys, context.run.workflows), sourceDescriptions: scope?.sourceDescriptions, components: scope?.components, self: scope?.self });
    },
  };
}
