/** Parameter checks: `in`, references to component parameters, and the expressions in values. */
import { checkTemplate } from './check-expressions.js';
import type { ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import { isReference, type Parameter, type Reference } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

const LOCATIONS = ['path', 'query', 'header', 'cookie'];
const REFERENCE = /^\$components\.parameters\.([^.\s]+)$/;

/**
 * Checks a list of parameters. `requireIn` is true where the parameters go to an operation (Arazzo:
 * `in` MUST be given unless the step runs a workflow, whose inputs the parameters then are).
 */
export function checkParameters(parameters: ReadonlyArray<Parameter | Reference>, scope: ExpressionScope, requireIn: boolean, report: Report): void {
  for (let i = 0; i < parameters.length; i++) {
    const parameter = parameters[i]!;
    if (isReference(parameter)) {
      checkParameterReference(parameter, scope, report);
      if (parameter.value !== undefined) checkTemplate(parameter.value, childPointer(parameter.pointer, 'value'), scope, report, true);
      continue;
    }
    checkLocation(parameter, requireIn, report);
    if (parameter.value !== undefined) checkTemplate(parameter.value, childPointer(parameter.pointer, 'value'), scope, report, true);
  }
}

/** Reports an `in` that is not path, query, header or cookie (or is missing where required). */
export function checkLocation(parameter: Parameter, requireIn: boolean, report: Report): void {
  const name = parameter.name ?? '';
  if (parameter.in === undefined) {
    if (requireIn) report.error('MISSING_FIELD', parameter.pointer, `parameter "${name}" has no "in"; a parameter of an operation needs in: path, query, header or cookie`);
  } else if (!LOCATIONS.includes(parameter.in)) {
    report.error('INVALID_PARAMETER_LOCATION', childPointer(parameter.pointer, 'in'), `parameter "${name}" has in: "${parameter.in}"; use path, query, header or cookie${didYouMean(parameter.in, LOCATIONS)}`);
  }
}

function checkParameterReference(ref: Reference, scope: ExpressionScope, report: Report): void {
  const at = childPointer(ref.pointer, 'reference');
  const match = REFERENCE.exec(ref.reference);
  if (!match) {
    report.error('INVALID_REFERENCE', at, `parameter reference "${ref.reference}" must be exactly $components.parameters.<name>`);
    return;
  }
  const name = match[1] ?? '';
  const declared = scope.doc.components?.parameters ?? {};
  if (!Object.hasOwn(declared, name)) {
    report.error('UNKNOWN_COMPONENT', at, `parameter reference "${ref.reference}": components.parameters has no "${name}"${didYouMean(name, Object.keys(declared))}`);
  }
}
