/** A step's parameters against the operation it calls: every path parameter filled, no unknown names. */
import type { Report } from './finding.js';
import { isReference, type ArazzoDocument, type Parameter, type Reference, type Step, type Workflow } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

/** What validation needs of an operation (an OpenAPI `Operation` fits): its declared parameters and its path template. */
export interface OperationShape {
  method?: string;
  path?: string;
  parameters: ReadonlyArray<{ name: string; in: string }>;
  pathTemplate: ReadonlyArray<{ literal: string } | { param: string }>;
}

const LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);
const REFERENCE = /^\$components\.parameters\.([^.\s]+)$/;

/** A parameter as the runner sends it: a reference resolved, with where it was written. */
interface Effective {
  name: string;
  in?: string;
  /** Where to report it: the `name` (`field`) of the entry at `pointer`, or its `reference` for a component parameter. */
  pointer: string;
  field: 'name' | 'reference';
}

/**
 * Reports a path parameter of the operation that neither the step nor its workflow fills (an
 * error: the request cannot be built), and a step parameter the operation does not declare (a
 * warning with the closest declared name; a header only when one is close, since APIs take
 * headers they do not declare). Workflow-level parameters fill path parameters but are not
 * reported as unknown: they apply to every step, whatever it calls.
 */
export function checkOperationParameters(doc: ArazzoDocument, workflow: Workflow, step: Step, operation: OperationShape, report: Report): void {
  const own = resolveAll(doc, step.parameters);
  const inherited = resolveAll(doc, workflow.parameters).filter((w) => !own.some((p) => p.name === w.name && p.in === w.in));
  const parameters = [...inherited, ...own];
  const pathParams = operation.pathTemplate.flatMap((part) => ('param' in part ? [part.param] : []));
  // Worded only for a finding: a long workflow's steps are nearly all fine.
  const operationLabel = (): string => {
    const route = operation.path === undefined ? '' : ` (${operation.method === undefined ? '' : `${operation.method.toUpperCase()} `}${operation.path})`;
    return step.operationId === undefined ? `the operation at operationPath${route}` : `operation "${operationIdOf(step)}"${route}`;
  };

  for (const name of new Set(pathParams)) {
    if (parameters.some((p) => p.name === name && locationOf(p, operation) === 'path')) continue;
    report.error(
      'MISSING_PATH_PARAMETER',
      childPointer(step.pointer, step.parameters.length > 0 ? 'parameters' : step.operationId === undefined ? 'operationPath' : 'operationId'),
      `${operationLabel()} needs path parameter "${name}", which no parameter of step "${step.stepId ?? ''}" fills; add one with name: ${name} and in: path`,
    );
  }

  for (const parameter of own) {
    const where = locationOf(parameter, operation);
    if (where === undefined || !LOCATIONS.has(where) || isDeclared(parameter.name, where, operation, pathParams)) continue;
    const candidates = [...operation.parameters.filter((p) => p.in === where).map((p) => p.name), ...(where === 'path' ? pathParams : [])];
    const hint = didYouMean(parameter.name, new Set(candidates));
    if (where === 'header' && hint === '') continue;
    report.warning('UNKNOWN_PARAMETER', childPointer(parameter.pointer, parameter.field), `parameter "${parameter.name}" (in: ${where}) is not a parameter of ${operationLabel()}${hint}`);
  }
}

function resolveAll(doc: ArazzoDocument, list: ReadonlyArray<Parameter | Reference>): Effective[] {
  return list.flatMap((entry): Effective[] => {
    if (!isReference(entry)) return entry.name === undefined ? [] : [{ name: entry.name, in: entry.in, pointer: entry.pointer, field: 'name' }];
    const match = REFERENCE.exec(entry.reference);
    const components = doc.components?.parameters ?? {};
    const found = match && Object.hasOwn(components, match[1] ?? '') ? components[match[1] ?? ''] : undefined;
    // An unresolvable reference is reported by checkParameters.
    return found?.name === undefined ? [] : [{ name: found.name, in: found.in, pointer: entry.pointer, field: 'reference' }];
  });
}

// As the request builder does: the parameter's own `in`, else the location the operation declares for the name.
function locationOf(parameter: Effective, operation: OperationShape): string | undefined {
  return parameter.in ?? operation.parameters.find((p) => p.name === parameter.name)?.in;
}

function isDeclared(name: string, where: string, operation: OperationShape, pathParams: readonly string[]): boolean {
  if (where === 'path' && pathParams.includes(name)) return true;
  if (where === 'header') return operation.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name.toLowerCase());
  return operation.parameters.some((p) => p.in === where && p.name === name);
}

function operationIdOf(step: Step): string {
  const id = step.operationId ?? '';
  return id.startsWith('$sourceDescriptions.') ? id.slice(id.indexOf('.', '$sourceDescriptions.'.length) + 1) : id;
}
