/** Checks that each step's operationId exists in its source description, when that description is a readable file. */
import type { Report } from './finding.js';
import type { ArazzoDocument, SourceDescription, Step } from './model.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

/** Returns the operationIds of a source description, or undefined when it cannot be read (remote, missing, invalid). */
export type LoadOperations = (sourceUrl: string) => Promise<Set<string> | undefined>;

const QUALIFIED = /^\$sourceDescriptions\.([^.]+)\.(.+)$/;

/**
 * Reports operationIds missing from their source, qualified ids naming an unknown source, and an
 * unqualified id found in several sources. Sources that cannot be read are skipped (validation
 * must not depend on the network), and so are all of them without `loadOperations`.
 */
export async function checkOperations(doc: ArazzoDocument, loadOperations: LoadOperations | undefined, report: Report): Promise<void> {
  const cache = new Map<string, Promise<Set<string> | undefined>>();
  const operationsOf = (source: SourceDescription): Promise<Set<string> | undefined> => {
    if (loadOperations === undefined || source.url === undefined || source.url.trim() === '') return Promise.resolve(undefined);
    let pending = cache.get(source.url);
    if (!pending) {
      pending = loadOperations(source.url).catch(() => undefined);
      cache.set(source.url, pending);
    }
    return pending;
  };
  const openapiSources = doc.sourceDescriptions.filter((source) => source.type === undefined || source.type === 'openapi');
  // Loaded when the first unqualified operationId needs them, then shared by every step.
  let openapiOperations: Promise<LoadedSource[]> | undefined;

  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      if (step.operationId === undefined) continue;
      const qualified = QUALIFIED.exec(step.operationId);
      if (qualified) {
        await checkQualified(step, qualified[1] ?? '', qualified[2] ?? '', doc, operationsOf, report);
      } else if (openapiSources.length > 0) {
        openapiOperations ??= Promise.all(openapiSources.map(async (source) => ({ source, operations: await operationsOf(source) })));
        checkUnqualified(step, step.operationId, openapiSources, await openapiOperations, report);
      }
    }
  }
}

interface LoadedSource {
  source: SourceDescription;
  operations: Set<string> | undefined;
}

async function checkQualified(
  step: Step,
  sourceName: string,
  operationId: string,
  doc: ArazzoDocument,
  operationsOf: (source: SourceDescription) => Promise<Set<string> | undefined>,
  report: Report,
): Promise<void> {
  const at = childPointer(step.pointer, 'operationId');
  const source = doc.sourceDescriptions.find((s) => s.name === sourceName);
  if (!source) {
    const names = doc.sourceDescriptions.flatMap((s) => (s.name === undefined ? [] : [s.name]));
    report.error('UNKNOWN_SOURCE', at, `operationId "${step.operationId}" names source "${sourceName}", which the document does not declare${didYouMean(sourceName, names)}`);
    return;
  }
  const operations = await operationsOf(source);
  if (operations && !operations.has(operationId)) {
    report.error('OPERATION_NOT_FOUND', at, `operation "${operationId}" is not in source "${sourceName}" (${source.url ?? ''})${didYouMean(operationId, operations)}`);
  }
}

function checkUnqualified(step: Step, operationId: string, sources: readonly SourceDescription[], loaded: readonly LoadedSource[], report: Report): void {
  const at = childPointer(step.pointer, 'operationId');
  const holders = loaded.filter(({ operations }) => operations?.has(operationId));
  if (holders.length > 1) {
    const names = holders.map(({ source }) => source.name ?? '').join(', ');
    report.error('AMBIGUOUS_OPERATION_ID', at, `operation "${operationId}" is in several sources (${names}); write $sourceDescriptions.<name>.${operationId}`);
    return;
  }
  // Only a miss in every source, all of them readable, is certain.
  if (holders.length === 0 && loaded.every(({ operations }) => operations !== undefined)) {
    const known = new Set(loaded.flatMap(({ operations }) => [...(operations ?? [])]));
    const where = sources.length === 1 ? `source "${sources[0]?.name ?? ''}" (${sources[0]?.url ?? ''})` : 'any source';
    report.error('OPERATION_NOT_FOUND', at, `operation "${operationId}" is not in ${where}${didYouMean(operationId, known)}`);
  }
}
