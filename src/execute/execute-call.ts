/**
 * The two effects of a nested workflow step (v2), asked for by the machine's `calling` and
 * `judging` states: evaluate the call's inputs from the step's parameters, and judge the finished
 * call (the step's success criteria and outputs, with `$outputs` the called workflow's outputs).
 */
import type { RunStepInput, StepOutcome, WorkflowResult } from '../../machines/types.js';
import type { ExpressionContext } from '../expressions/context.js';
import { UnresolvedExpressionError } from '../expressions/errors.js';
import { evaluateExpression } from '../expressions/evaluate-expression.js';
import type { Expression } from '../expressions/ast.js';
import { renderTemplate, soleExpression } from '../expressions/render-template.js';
import type { StepProgram } from '../plan/compile-steps.js';
import { evaluateCriteria } from '../plan/evaluate-criteria.js';
import { failureMessage } from '../observe/failure-message.js';
import { evaluateOutputs } from '../plan/output-values.js';
import type { StepReporter } from '../observe/reporter.js';
import { workflowsIn } from '../plan/workflows-view.js';
import { codeSpan } from '../output/code-span.js';

/** `callLogin/doLogin`: a step's name in progress lines, with the nested steps that led to it. */
export function shownStepId(input: Pick<RunStepInput, 'via'>, stepId: string): string {
  return input.via.length === 0 ? stepId : `${input.via.join('/')}/${stepId}`;
}

/**
 * The called workflow's inputs: every step parameter by `name` (its `in` is ignored), over the
 * caller's workflow-level parameters (compiled into the program the same way), values keeping their
 * JSON types. A parameter that resolves to nothing fails the step before the call (in a dry run, it
 * is kept as written).
 */
export function prepareCall(program: StepProgram, input: RunStepInput, dryRun: boolean, reporter: StepReporter): StepOutcome {
  // A dry run judges nothing, so a workflow that calls itself would go down to the depth limit:
  // it shows each cycle of calls once (the workflow runs again once) and does not go round again.
  if (dryRun && program.callKey !== undefined && input.stack.filter((key) => key === program.callKey).length >= 2) {
    reporter.warn(`step "${shownStepId(input, program.stepId)}": a dry run does not call workflow "${program.callKey}" again (it is already being called)`);
    return { statusCode: 0, ok: false, dryRun: true, outputs: {}, keepData: false };
  }
  const ctx = baseContext(program, input);
  const leaveOut = notGivenOptional(program, ctx.inputs);
  const inputs: Record<string, unknown> = {};
  for (const parameter of program.parameters) {
    // An input of the caller's that its workflow does not require and was not given: the called workflow does not get it either.
    const sole = leaveOut && soleExpression(parameter.value);
    if (sole && leaveOut(sole.expression) && evaluateExpression(sole.expression, ctx) === undefined) continue;
    try {
      define(inputs, parameter.name, renderTemplate(parameter.value, ctx, { onUnresolved: dryRun ? 'keep' : 'throw' }));
    } catch (error) {
      if (!(error instanceof UnresolvedExpressionError)) throw error;
      if (parameter.optional) continue;
      const reason = `the call could not be made: parameter "${parameter.name}": ${error.expression} resolved to nothing`;
      reporter.stepFailedEarly(shownStepId(input, program.stepId), reason);
      return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason };
    }
  }
  const checked = program.callInputs?.(inputs) ?? { inputs };
  if ('reason' in checked) {
    // A dry run shows the call anyway: its inputs may hold expressions that resolve only in a real run.
    if (!dryRun) {
      const reason = `the call could not be made: ${checked.reason}`;
      reporter.stepFailedEarly(shownStepId(input, program.stepId), reason);
      return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason };
    }
    return { statusCode: 0, ok: false, dryRun: false, outputs: {}, call: { inputs } };
  }
  return { statusCode: 0, ok: false, dryRun: false, outputs: {}, call: { inputs: checked.inputs } };
}

/**
 * Whether an expression is an input the step's workflow declares without requiring it that the run
 * was not given (v2): a request part, or a call's parameter, made of it is left out. Undefined when
 * the workflow has no such inputs.
 */
export function notGivenOptional(program: StepProgram, inputs: Record<string, unknown>): ((expression: Expression) => boolean) | undefined {
  const optional = program.optionalInputs;
  if (optional === undefined) return undefined;
  return (expression) => expression.kind === 'inputs' && optional.has(expression.name) && !Object.hasOwn(inputs, expression.name);
}

/**
 * Judges a finished call: the step succeeds when the called workflow succeeded and the step's own
 * success criteria hold; its outputs are evaluated with `$outputs.<name>` the workflow's outputs.
 */
export function judgeCall(program: StepProgram, input: RunStepInput, dryRun: boolean, reporter: StepReporter): StepOutcome {
  const result = input.result;
  const shown = shownStepId(input, program.stepId);
  if (result === undefined) throw new Error(`step ${program.stepId}: no result of its nested call to judge`);
  if (dryRun) return { statusCode: 0, ok: false, dryRun: true, outputs: {}, keepData: false };
  const ctx: ExpressionContext = { ...baseContext(program, input), outputs: result.outputs };
  let reason = result.status === 'succeeded' ? undefined : `workflow "${result.workflowId}" ${callFailure(result)}`;
  if (reason === undefined) {
    const miss = evaluateCriteria(program.successCriteria, ctx);
    if (miss?.error !== undefined) reason = `success criterion ${codeSpan(miss.criterion.source)}: ${miss.error}`;
    else if (miss) reason = `success criterion ${codeSpan(miss.criterion.source)} does not hold`;
  }
  const ok = reason === undefined;
  reporter.callDone(shown, result.workflowId, ok, reason);
  const outcome: StepOutcome = { statusCode: 0, ok, dryRun: false, outputs: ok ? evaluateOutputs(program.outputs, ctx) : {}, keepData: false };
  if (reason !== undefined) outcome.reason = reason;
  return outcome;
}

function callFailure(result: WorkflowResult): string {
  // The workflow's dependsOn failed, so none of its steps ran.
  if (result.failure?.code === 'DEPENDENCY_FAILED') return `did not run: ${failureMessage(result.failure)}`;
  if (result.failure) return `failed${result.failure.stepId ? ` at step "${result.failure.stepId}"` : ''}: ${failureMessage(result.failure)}`;
  return `ended by a transfer to workflow "${result.transfer?.to ?? ''}", which this call cannot follow`;
}

function baseContext(program: StepProgram, input: RunStepInput): ExpressionContext {
  return {
    inputs: input.inputs,
    steps: input.steps,
    workflows: workflowsIn(program.scope?.workflowKeys, input.workflows),
    sourceDescriptions: program.scope?.sourceDescriptions,
    components: program.scope?.components,
    self: program.scope?.self,
  };
}

/** Sets an own data property: an input named "__proto__" must stay data. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
