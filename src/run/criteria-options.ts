import { allCriteria } from '../arazzo/all-criteria.js';
import type { ArazzoDocument } from '../arazzo/model.js';
import type { RunnerVersion } from '../arazzo/runner-version.js';
import type { CriteriaOptions } from './evaluate-criteria.js';

/**
 * How a run or a graph prepares the document's criteria: for v2, the libraries of the criterion
 * types the document uses, loaded now (and only then); for v1, nothing to load.
 */
export async function criteriaOptionsFor(doc: ArazzoDocument, runner: RunnerVersion, warn?: (message: string) => void): Promise<CriteriaOptions> {
  if (runner === 'v1') return { runner };
  const { loadCriterionLibraries } = await import('../expressions/criterion-libraries.js');
  const libraries = await loadCriterionLibraries(new Set(allCriteria(doc).map((criterion) => criterion.type)), warn);
  return warn ? { runner, libraries, warn } : { runner, libraries };
}
