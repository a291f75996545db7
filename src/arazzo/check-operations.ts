/** Checks that each step's operationId exists in its source description, when that description is a readable file, and the step's parameters against it. */
import { checkOperationParameters, type OperationShape } from './check-operation-parameters.js';
import type { Report } from './finding.js';
import type { ArazzoDocument, SourceDescription, Step } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

export type { OperationShape } from './check-operation-parameters.js';

/** The operations of a source description by operationId (an OpenAPI description's `operations` map fits). */
export type SourceOperations = ReadonlyMap<string, OperationShape>;

/**
 * Returns the operations of a source description, or undefined when it is deliberately not read
 * (a remote source during `validate`). Throws when it cannot be read; the message says why.
 */
export type LoadOperations = (sourceUrl: string) => Promise<SourceOperations | undefined>;

/** A source's operations, or why they could not be read; both absent when it was not read on purpose. */
interface Loaded {
  operations?: SourceOperations;
  unreadable?: string;
}

const QUALIFIED = /^\$sourceDescriptions\.([^.]+)\.(.+)$/;

/**
 * Reports operationIds missing from their source, qualified ids naming an unknown source, an
 * unqualified id found in several sources, and step parameters that do not fit the operation.
 * Sources that are not read (remote ones: validation must not depend on the network) are
 * skipped, and so are all of them without `loadOperations`; one that cannot be read is a warning.
 */
export async function checkOperations(doc: ArazzoDocument, loadOperations: LoadOperations | undefined, report: Report): Promise<void> {
  const cache = new Map<string, Promise<Loaded>>();
  const load = (source: SourceDescription): Promise<Loaded> => {
    if (loadOperations === undefined || source.url === undefined || source.url.trim() === '') return Promise.resolve({});
    let pending = cache.get(source.url);
    if (!pending) {
      pending = loadOperations(source.url).then(
        (operations) => (operations === undefined ? {} : { operations }),
        (error: unknown) => ({ unreadable: error instanceof Error ? error.message : String(error) }),
      );
      cache.set(source.url, pending);
    }
    return pending;
  };
  const operationsOf = async (source: SourceDescription) => (await load(source)).operations;
  const openapiSources = doc.sourceDescriptions.filter((source) => source.type === undefined || source.type === 'openapi');
  // Read once, when some step has an unqualified operationId, and shared by every step (one
  // await for the document, not one per step).
  const unqualified = openapiSources.length > 0 && doc.workflows.some((workflow) => workflow.steps.some((step) => step.operationId !== undefined && !QUALIFIED.test(step.operationId)));
  const openapiOperations = unqualified ? await Promise.all(openapiSources.map(async (source) => ({ source, operations: await operationsOf(source) }))) : [];
  // Likewise every source a qualified operationId names (the first source of a name, as `find` gives).
  const sourcesByName = new Map<string, SourceDescription>();
  for (const source of doc.sourceDescriptions) if (source.name !== undefined && !sourcesByName.has(source.name)) sourcesByName.set(source.name, source);
  const named = new Map<SourceDescription, SourceOperations | undefined>();
  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      const qualified = step.operationId === undefined ? null : QUALIFIED.exec(step.operationId);
      const source = qualified ? sourcesByName.get(qualified[1] ?? '') : undefined;
      // An AsyncAPI source is not read as an OpenAPI description (check-arazzo-1-1.ts checks its steps).
      if (source && source.type !== 'asyncapi') named.set(source, undefined);
    }
  }
  await Promise.all([...named.keys()].map(async (source) => named.set(source, await operationsOf(source))));

  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      if (step.operationId === undefined || step.action !== undefined) continue;
      const qualified = QUALIFIED.exec(step.operationId);
      let operation: OperationShape | undefined;
      if (qualified) {
        operation = checkQualified(step, qualified[1] ?? '', qualified[2] ?? '', doc, sourcesByName, named, report);
      } else if (openapiSources.length > 0) {
        operation = checkUnqualified(step, step.operationId, openapiSources, openapiOperations, report);
      }
      if (operation) checkOperationParameters(doc, workflow, step, operation, report);
    }
  }
  await reportUnreadable(openapiSources, load, report);
}

// `run` reads every OpenAPI source and stops (exit 2) on one it cannot read; `validate` says which and why.
async function reportUnreadable(sources: readonly SourceDescription[], load: (source: SourceDescription) => Promise<Loaded>, report: Report): Promise<void> {
  for (const source of sources) {
    const { unreadable } = await load(source);
    if (unreadable === undefined) continue;
    report.warning(
      'SOURCE_NOT_CHECKED',
      childPointer(source.pointer, 'url'),
      `source "${source.name ?? ''}" (${source.url ?? ''}) cannot be read, so the operationIds and parameters of the steps that use it were not checked: ${unreadable}`,
    );
  }
}

interface LoadedSource {
  source: SourceDescription;
  operations: SourceOperations | undefined;
}

function checkQualified(
  step: Step,
  sourceName: string,
  operationId: string,
  doc: ArazzoDocument,
  sourcesByName: ReadonlyMap<string, SourceDescription>,
  named: ReadonlyMap<SourceDescription, SourceOperations | undefined>,
  report: Report,
): OperationShape | undefined {
  const at = childPointer(step.pointer, 'operationId');
  const source = sourcesByName.get(sourceName);
  if (!source) {
    const names = doc.sourceDescriptions.flatMap((s) => (s.name === undefined ? [] : [s.name]));
    report.error('UNKNOWN_SOURCE', at, `operationId "${step.operationId}" names source "${sourceName}", which the document does not declare${didYouMean(sourceName, names)}`);
    return undefined;
  }
  const operations = named.get(source);
  if (operations && !operations.has(operationId)) {
    report.error('OPERATION_NOT_FOUND', at, `operation "${operationId}" is not in source "${sourceName}" (${source.url ?? ''})${didYouMean(operationId, operations.keys())}`);
  }
  return operations?.get(operationId);
}

function checkUnqualified(step: Step, operationId: string, sources: readonly SourceDescription[], loaded: readonly LoadedSource[], report: Report): OperationShape | undefined {
  const holders = loaded.filter(({ operations }) => operations?.has(operationId));
  if (holders.length === 1) return holders[0]?.operations?.get(operationId);
  const at = childPointer(step.pointer, 'operationId');
  if (holders.length > 1) {
    const names = holders.map(({ source }) => source.name ?? '').join(', ');
    report.error('AMBIGUOUS_OPERATION_ID', at, `operation "${operationId}" is in several sources (${names}); write $sourceDescriptions.<name>.${operationId}`);
    return undefined;
  }
  // Only a miss in every source, all of them readable, is certain.
  if (holders.length === 0 && loaded.every(({ operations }) => operations !== undefined)) {
    const known = new Set(loaded.flatMap(({ operations }) => [...(operations?.keys() ?? [])]));
    const where = sources.length === 1 ? `source "${sources[0]?.name ?? ''}" (${sources[0]?.url ?? ''})` : 'any source';
    report.error('OPERATION_NOT_FOUND', at, `operation "${operationId}" is not in ${where}${didYouMean(operationId, known)}`);
  }
  return undefined;
}
