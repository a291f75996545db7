import { allCriteria } from '../arazzo/all-criteria.js';
import type { ArazzoDocument } from '../arazzo/model.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import type { CriteriaOptions } from './evaluate-criteria.js';

/**
 * How a run or a graph prepares the document's criteria: when the profile evaluates typed criteria
 * (v2), the libraries of the criterion types the document uses, loaded now (and only then);
 * otherwise (v1) nothing to load.
 */
export async function criteriaOptionsFor(doc: ArazzoDocument, profile: RunnerProfile, warn?: (message: string) => void): Promise<CriteriaOptions> {
  if (!profile.evaluatesTypedCriteria) return { profile };
  const { loadCriterionLibraries } = await import('../expressions/criterion-libraries.js');
  const libraries = await loadCriterionLibraries(new Set(allCriteria(doc).map((criterion) => criterion.type)), warn);
  return warn ? { profile, libraries, warn } : { profile, libraries };
}
