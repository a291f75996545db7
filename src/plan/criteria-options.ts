import { allCriteria } from '../arazzo/all-criteria.js';
import { selectorTypes } from '../arazzo/all-selectors.js';
import type { ArazzoDocument } from '../arazzo/model.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import type { RegexTester } from '../expressions/regex-tester.js';
import type { CriteriaOptions } from './evaluate-criteria.js';
import { readsSelectors } from './template-options.js';

/** The criterion types whose evaluation tests a regex: regex criteria, and JSONPath's match() and search(). */
const TYPES_WITH_REGEX: ReadonlySet<string> = new Set(['regex', 'jsonpath']);

/** What a run gives for evaluating criteria; graph gives nothing (it evaluates none). */
export interface CriteriaServices {
  /** Hears why a typed criterion could not be evaluated. */
  warn?: (message: string) => void;
  /** The run's regex tester, asked for only when the document has criteria that test a regex (the run creates its worker then). */
  regex?: () => Promise<RegexTester>;
}

/**
 * How a run or a graph prepares the document's criteria: when the profile evaluates typed criteria
 * (v2), the libraries of the criterion types the document uses, loaded now (and only then), and the
 * run's regex tester when those types test a regex; otherwise (v1) nothing to load. An Arazzo 1.1
 * document's Selector Objects and replacement target types add theirs (template-options.ts).
 */
export async function criteriaOptionsFor(doc: ArazzoDocument, profile: RunnerProfile, services: CriteriaServices = {}): Promise<CriteriaOptions> {
  if (!profile.evaluatesTypedCriteria) return { profile };
  const types = new Set(allCriteria(doc).map((criterion) => criterion.type));
  if (readsSelectors(profile)) for (const type of selectorTypes(doc)) types.add(type);
  const regex = services.regex && [...types].some((type) => TYPES_WITH_REGEX.has(type)) ? await services.regex() : undefined;
  const { loadCriterionLibraries } = await import('../expressions/criterion-libraries.js');
  const libraries = await loadCriterionLibraries(types, { ...(regex ? { regex } : {}), ...(services.warn ? { warn: services.warn } : {}) });
  return { profile, libraries, ...(regex ? { regex } : {}), ...(services.warn ? { warn: services.warn } : {}) };
}
