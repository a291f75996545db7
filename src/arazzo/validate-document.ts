import { parsePointer, resolvePointer } from '../expressions/json-pointer.js';
import { checkIds } from './check-ids.js';
import type { LoadSourceWorkflows } from './check-source-workflows.js';
import type { LoadPathOperations } from './check-operation-paths.js';
import { checkOperations, type LoadOperations } from './check-operations.js';
import { checkStructure } from './check-structure.js';
import { checkComponents, checkWorkflows } from './check-workflows.js';
import { locateFindings, Report, sortFindings, type Finding } from './finding.js';
import type { ArazzoDocument, LoadedDocument } from './model.js';
import { ParseMemo } from './parse-memo.js';
import { DEFAULT_PROFILE, readsAs11, type RunnerProfile } from './runner-profile.js';

export interface ValidateOptions {
  /** operationIds of a source description (its url as written), or undefined to skip it; without it operationIds are not checked. */
  loadOperations?: LoadOperations;
  /** Every operation of a source description (its url as written), for operationPath steps; without it they are not looked up. */
  loadPathOperations?: LoadPathOperations;
  /** The runner profile the document is checked for (v1 by default); one that checks the constructs it runs adds those checks (check-v2.ts). */
  profile?: RunnerProfile;
  /** Arazzo 1.1: checks the document's asynchronous steps against their AsyncAPI sources (src/plan/check-async-steps.ts); without it they are not. */
  checkAsyncSteps?: (doc: ArazzoDocument, report: Report) => Promise<void>;
  /** The workflow ids of an Arazzo source (its url as written), or undefined to skip it; without it they are not checked. */
  loadSourceWorkflows?: LoadSourceWorkflows;
}

/**
 * Validates a loaded document against Arazzo 1.0.x and what the v1 runner supports. Returns the
 * findings in file order; never throws for a problem in the document.
 */
export async function validateDocument(doc: LoadedDocument, options: ValidateOptions = {}): Promise<Finding[]> {
  const profile = options.profile ?? DEFAULT_PROFILE;
  const report = new Report();
  const rawAt = (pointer: string): unknown => resolvePointer(doc.raw, parsePointer(pointer));
  checkStructure(doc.raw, report, profile.featureSet);
  checkIds(doc.model, report, profile);
  const parsed = new ParseMemo(profile.featureSet);
  checkWorkflows(doc.model, rawAt, parsed, report, profile);
  checkComponents(doc.model, rawAt, parsed, report, profile);
  await checkOperations(doc.model, options.loadOperations, report);
  if (readsAs11(profile, doc.model.arazzo)) {
    (await import('./check-arazzo-1-1.js')).checkArazzo11(doc.model, rawAt, report);
    await options.checkAsyncSteps?.(doc.model, report);
  }
  if (profile.checksRunConstructs) {
    await (await import('./check-v2.js')).checkForV2(doc.model, report, profile.featureSet);
    (await import('./check-version-v2.js')).checkVersionForV2(doc.model, report, profile);
    await (await import('./check-operation-paths.js')).checkOperationPaths(doc.model, options.loadPathOperations, report);
    await (await import('./check-replacements.js')).checkReplacements(doc.model, report, profile.featureSet);
    if (profile.featureSet === '1.1') await (await import('./check-selectors.js')).checkSelectors(doc.model, doc.raw, report);
    if (options.loadSourceWorkflows) await (await import('./check-source-workflows.js')).checkSourceWorkflows(doc.model, options.loadSourceWorkflows, report);
  }
  return sortFindings(locateFindings(report.findings, doc.locate));
}
