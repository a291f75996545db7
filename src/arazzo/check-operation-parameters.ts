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
  // Loops by index and no closures per step: in a fresh process this runs unoptimised for a long
  // workflow's first steps, where each iterator step and closure is an object.
  const own = resolveAll(doc, step.parameters);
  const inherited = resolveAll(doc, workflow.parameters).filter((w) => !own.some((p) => p.name === w.name && p.in === w.in));
  const parameters = inherited.length === 0 ? own : [...inherited, ...own];
  const pathParams: string[] = [];
  for (let i = 0; i < operation.pathTemplate.length; i++) {
    const part = operation.pathTemplate[i]!;
    if ('param' in part) pathParams.push(part.param);
  }
  // Worded only for a finding: a long workflow's steps are nearly all fine.
  const operationLabel = (): string => {
    const route = operation.path === undefined ? '' : ` (${operation.method === undefined ? '' : `${operation.method.toUpperCase()} `}${operation.path})`;
    return step.operationId === undefined ? `the operation at operationPath${route}` : `operation "${operationIdOf(step)}"${route}`;
  };

  for (let i = 0; i < pathParams.length; i++) {
    const name = pathParams[i]!;
    if (pathParams.indexOf(name) < i || fillsPath(parameters, name, operation)) continue;
    report.error(
      'MISSING_PATH_PARAMETER',
      childPointer(step.pointer, step.parameters.length > 0 ? 'parameters' : step.operationId === undefined ? 'operationPath' : 'operationId'),
      `${operationLabel()} needs path parameter "${name}", which no parameter of step "${step.stepId ?? ''}" fills; add one with name: ${name} and in: path`,
    );
  }

  for (let i = 0; i < own.length; i++) {
    const parameter = own[i]!;
    const where = locationOf(parameter, operation);
    if (where === undefined || !LOCATIONS.has(where) || isDeclared(parameter.name, where, operation, pathParams)) continue;
    const candidates = [...operation.parameters.filter((p) => p.in === where).map((p) => p.name), ...(where === 'path' ? pathParams : [])];
    const hint = didYouMean(parameter.name, new Set(candidates));
    if (where === 'header' && hint === '') continue;
    report.warning('UNKNOWN_PARAMETER', childPointer(parameter.pointer, parameter.field), `parameter "${parameter.name}" (in: ${where}) is not a parameter of ${operationLabel()}${hint}`);
  }
}

function resolveAll(doc: ArazzoDocument, list: ReadonlyArray<Parameter | Reference>): Effective[] {
  const out: Effective[] = [];
  for (let i = 0; i < list.length; i++) {
    const entry = list[i]!;
    if (!isReference(entry)) {
      if (entry.name !== undefined) out.push({ name: entry.name, in: entry.in, pointer: entry.pointer, field: 'name' });
      continue;
    }
    const match = REFERENCE.exec(entry.reference);
    const components = doc.components?.parameters ?? {};
    const found = match && Object.hasOwn(components, match[1] ?? '') ? components[match[1] ?? ''] : undefined;
    // An unresolvable reference is reported by checkParameters.
    if (found?.name !== undefined) out.push({ name: found.name, in: found.in, pointer: entry.pointer, field: 'reference' });
  }
  return out;
}

/** Whether one of the parameters fills the path parameter `name`. */
function fillsPath(parameters: readonly Effective[], name: string, operation: OperationShape): boolean {
  for (let i = 0; i < parameters.length; i++) if (parameters[i]!.name === name && locationOf(parameters[i]!, operation) === 'path') return true;
  return false;
}

// As the request builder does: the parameter's own `in`, else the location the operation declares for the name.
function locationOf(parameter: Effective, operation: OperationShape): string | undefined {
  if (parameter.in !== undefined) return parameter.in;
  for (let i = 0; i < operation.parameters.length; i++) if (operation.parameters[i]!.name === parameter.name) return operation.parameters[i]!.in;
  return undefined;
}

function isDeclared(name: string, where: string, operation: OperationShape, pathParams: readonly string[]): boolean {
  if (where === 'path' && pathParams.includes(name)) return true;
  if (where === 'header') return operation.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name.toLowerCase());
  for (let i = 0; i < operation.parameters.length; i++) if (operation.parameters[i]!.in === where && operation.parameters[i]!.name === name) return true;
  return false;
}

function operationIdOf(step: Step): string {
  const id = step.operationId ?? '';
  return id.startsWith('$sourceDescriptions.') ? id.slice(id.indexOf('.', '$sourceDescriptions.'.length) + 1) : id;
}
