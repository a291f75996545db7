/** Parameter checks: `in`, references to component parameters, and the expressions in values. */
import { checkTemplate } from './check-expressions.js';
import type { ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import { isReference, type Parameter, type Reference } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

const LOCATIONS = ['path', 'query', 'header', 'cookie'];
/** Arazzo 1.1 adds `querystring`: the whole query string as one value. */
const LOCATIONS_1_1 = [...LOCATIONS, 'querystring'];
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
    checkLocation(parameter, requireIn, report, scope.profile.sendsQuerystring ? LOCATIONS_1_1 : LOCATIONS);
    if (parameter.value !== undefined) checkTemplate(parameter.value, childPointer(parameter.pointer, 'value'), scope, report, true);
  }
}

/** Reports an `in` that is not one of `locations` (path, query, header or cookie; 1.1 adds querystring), or is missing where required. */
export function checkLocation(parameter: Parameter, requireIn: boolean, report: Report, locations: readonly string[] = LOCATIONS): void {
  const name = parameter.name ?? '';
  const listed = `${locations.slice(0, -1).join(', ')} or ${locations[locations.length - 1]}`;
  if (parameter.in === undefined) {
    if (requireIn) report.error('MISSING_FIELD', parameter.pointer, `parameter "${name}" has no "in"; a parameter of an operation needs in: ${listed}`);
  } else if (!locations.includes(parameter.in)) {
    report.error('INVALID_PARAMETER_LOCATION', childPointer(parameter.pointer, 'in'), `parameter "${name}" has in: "${parameter.in}"; use ${listed}${didYouMean(parameter.in, locations)}`);
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
