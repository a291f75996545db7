/** Checks what a parsed runtime expression refers to: steps, their outputs, sources, components, workflows. */
import type { Expression } from '../expressions/ast.js';
import { canRevisit, type ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import { readsAs11 } from './runner-profile.js';
import { didYouMean } from './suggest.js';

/** Reports references to unknown or later steps, undeclared outputs, unknown sources/components/workflows, and `$response` before the request. */
export function checkReferences(expr: Expression, pointer: string, scope: ExpressionScope, report: Report): void {
  switch (expr.kind) {
    case 'response':
    case 'statusCode':
      if (scope.phase === 'request') {
        report.error('RESPONSE_NOT_AVAILABLE', pointer, `${expr.source} is not available here: the step's request has not been sent yet`);
      } else if (scope.phase === 'workflow') {
        report.error('RESPONSE_NOT_AVAILABLE', pointer, `${expr.source} has no current step in workflow outputs; use $steps.<stepId>.response… or a step output`);
      }
      return;
    case 'stepOutputs':
    case 'stepRequest':
    case 'stepResponse':
      checkStepReference(expr, expr.stepId, expr.kind === 'stepOutputs' ? expr.name : undefined, pointer, scope, report);
      return;
    case 'sourceDescription': {
      const names = scope.doc.sourceDescriptions.flatMap((s) => (s.name === undefined ? [] : [s.name]));
      if (!names.includes(expr.name)) {
        report.error('UNKNOWN_SOURCE', pointer, `${expr.source} names source "${expr.name}", which the document does not declare${didYouMean(expr.name, names)}`);
      }
      return;
    }
    case 'component': {
      const section = scope.doc.components?.[expr.section] ?? {};
      if (!Object.hasOwn(section, expr.name)) {
        report.error('UNKNOWN_COMPONENT', pointer, `${expr.source} names a component that components.${expr.section} does not declare${didYouMean(expr.name, Object.keys(section))}`);
      }
      return;
    }
    case 'workflow': {
      const ids = scope.doc.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
      if (!ids.includes(expr.workflowId)) {
        report.error('UNKNOWN_WORKFLOW', pointer, `${expr.source} names workflow "${expr.workflowId}", which the document does not declare${didYouMean(expr.workflowId, ids)}`);
      }
      return;
    }
    default:
      return;
  }
}

function checkStepReference(expr: Expression, stepId: string, output: string | undefined, pointer: string, scope: ExpressionScope, report: Report): void {
  const workflow = scope.workflow;
  if (workflow === undefined || scope.phase === 'shared') return;
  const index = scope.stepIndexes?.get(stepId) ?? workflow.steps.findIndex((step) => step.stepId === stepId);
  const target = workflow.steps[index];
  if (target === undefined) {
    const ids = workflow.steps.flatMap((s) => (s.stepId === undefined ? [] : [s.stepId]));
    report.error('UNKNOWN_STEP', pointer, `${expr.source} names step "${stepId}", which workflow "${workflow.workflowId ?? ''}" does not have${didYouMean(stepId, ids)}`);
    return;
  }
  if (output !== undefined && !declaresOutput(target.outputs, output)) {
    const declared = Object.keys(target.outputs);
    const known = declared.length === 0 ? 'it declares no outputs' : `it declares ${declared.map((name) => `"${name}"`).join(', ')}`;
    report.error('UNKNOWN_STEP_OUTPUT', pointer, `${expr.source}: step "${stepId}" has no output "${output}" (${known})${didYouMean(output, declared)}`);
    return;
  }
  if (scope.stepIndex === undefined) return;
  // A step that a goto can bring round again (a pagination loop reading its own previous page) sees the outputs of its earlier visit.
  if (index >= scope.stepIndex && canRevisit(scope.jumps, scope.stepIndex, index)) return;
  if (index === scope.stepIndex) {
    report.warning('FORWARD_STEP_REFERENCE', pointer, `${expr.source} refers to its own step "${stepId}", which has not finished yet; use $response… or $statusCode for the current step`);
  } else if (index > scope.stepIndex && readsAs11(scope.profile, scope.doc.arazzo)) {
    // Arazzo 1.1: with step dependsOn, output references order the steps (step-order.ts); without, a later step's outputs are an error, as the text recommends.
    if (!workflow.steps.some((step) => step.dependsOn.length > 0)) {
      report.error('FORWARD_STEP_REFERENCE', pointer, `${expr.source} refers to step "${stepId}", which comes later in the workflow; Arazzo 1.1 runs steps in order when no step has dependsOn: move the step, or declare dependsOn`);
    }
  } else if (index > scope.stepIndex) {
    report.warning('FORWARD_STEP_REFERENCE', pointer, `${expr.source} refers to step "${stepId}", which comes later in the workflow and will not have run yet (unless a goto jumps back)`);
  }
}

/** `list` or `list.name` (Arazzo's `.` property de-reference) of a declared output `list`. */
function declaresOutput(outputs: object, name: string): boolean {
  if (Object.hasOwn(outputs, name)) return true;
  for (let dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
    if (Object.hasOwn(outputs, name.slice(0, dot))) return true;
  }
  return false;
}
