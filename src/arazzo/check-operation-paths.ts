/** v2: each step's operationPath names a declared OpenAPI source and an operation of it; the step's parameters fit that operation. */
import { checkOperationParameters, type OperationShape } from './check-operation-parameters.js';
import type { Report } from './finding.js';
import type { ArazzoDocument, SourceDescription, Step } from './model.js';
import { findByPath, methodsAt, missingOperation, OperationPathSyntaxError, parseOperationPath, type OperationPathTarget, type PathAddressable } from './operation-path.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

/** Every operation of a source description, with or without an operationId. */
export type PathOperations = ReadonlyArray<OperationShape & PathAddressable>;

/**
 * Returns every operation of a source description (its url as written), or undefined when it is
 * not read (a remote source during `validate`) or cannot be (SOURCE_NOT_CHECKED says why).
 */
export type LoadPathOperations = (sourceUrl: string) => Promise<PathOperations | undefined>;

/**
 * Reports an operationPath that is not `{$sourceDescriptions.<name>.url}#/paths/<path>/<method>`
 * (OPERATION_PATH_SYNTAX), that names an undeclared or non-OpenAPI source (UNKNOWN_SOURCE), or an
 * operation its source does not have (OPERATION_NOT_FOUND, with the closest path); then checks the
 * step's parameters against the operation, as for an operationId. Sources `load` does not read are
 * not looked into.
 */
export async function checkOperationPaths(doc: ArazzoDocument, load: LoadPathOperations | undefined, report: Report): Promise<void> {
  const loaded = new Map<string, Promise<PathOperations | undefined>>();
  const operationsOf = (source: SourceDescription): Promise<PathOperations | undefined> => {
    if (load === undefined || source.url === undefined || source.url.trim() === '') return Promise.resolve(undefined);
    let pending = loaded.get(source.url);
    if (!pending) {
      pending = load(source.url).catch(() => undefined);
      loaded.set(source.url, pending);
    }
    return pending;
  };
  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      // An asynchronous step (Arazzo 1.1: action send or receive) names an AsyncAPI operation; check-arazzo-1-1.ts checks it.
      if (step.operationPath === undefined || step.operationId !== undefined || step.action !== undefined) continue;
      const target = await readTarget(step, doc, operationsOf, report);
      if (!target) continue;
      const operations = await operationsOf(target.source);
      if (operations === undefined) continue;
      const operation = findByPath(operations, target.path);
      if (operation) checkOperationParameters(doc, workflow, step, operation, report);
      else report.error('OPERATION_NOT_FOUND', at(step), `step "${step.stepId ?? ''}": operationPath names no operation: ${missingOperation(operations, target.path)}`);
    }
  }
}

async function readTarget(
  step: Step,
  doc: ArazzoDocument,
  operationsOf: (source: SourceDescription) => Promise<PathOperations | undefined>,
  report: Report,
): Promise<{ source: SourceDescription; path: OperationPathTarget } | undefined> {
  const label = `step "${step.stepId ?? ''}"`;
  let path: OperationPathTarget;
  try {
    path = parseOperationPath(step.operationPath ?? '');
  } catch (error) {
    if (!(error instanceof OperationPathSyntaxError)) throw error;
    report.error('OPERATION_PATH_SYNTAX', at(step), `${label}: ${(await pathItemProblem(doc, error, operationsOf)) ?? error.message}`);
    return undefined;
  }
  const source = doc.sourceDescriptions.find((s) => s.name === path.source);
  if (!source) {
    const names = doc.sourceDescriptions.flatMap((s) => (s.name === undefined ? [] : [s.name]));
    report.error('UNKNOWN_SOURCE', at(step), `${label}: operationPath names source "${path.source}", which the document does not declare${didYouMean(path.source, names)}`);
    return undefined;
  }
  if (source.type !== undefined && source.type !== 'openapi') {
    report.error('UNKNOWN_SOURCE', at(step), `${label}: operationPath names source "${path.source}", which is of type ${source.type}; an operationPath points into an OpenAPI description`);
    return undefined;
  }
  return { source, path };
}

// A pointer to a path item, when its source is read and the path has operations: the pointer with their method.
async function pathItemProblem(doc: ArazzoDocument, error: OperationPathSyntaxError, operationsOf: (source: SourceDescription) => Promise<PathOperations | undefined>): Promise<string | undefined> {
  const item = error.pathItem;
  const source = item && doc.sourceDescriptions.find((s) => s.name === item.source);
  const operations = source ? await operationsOf(source) : undefined;
  const methods = item && operations ? methodsAt(operations, item.path) : [];
  if (!item || methods.length === 0) return undefined;
  const others = methods.length > 1 ? ` (the path has ${methods.join(', ')})` : '';
  return `the pointer "${item.pointer}" names a path item, not an operation; add the method: ${item.pointer}/${methods[0]}${others}`;
}

function at(step: Step): string {
  return childPointer(step.pointer, 'operationPath');
}
