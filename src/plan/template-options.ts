/**
 * How a run reads a document's values (parameters, payloads, replacement values, outputs) for its
 * profile: Arazzo 1.1 reads the 1.1 expression grammar and Selector Objects, evaluated with the
 * libraries loaded for the document; 1.0 neither (a `{context, selector, type}` mapping is data).
 */
import { pathToFileURL } from 'node:url';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import type { TemplateOptions } from '../expressions/compile-template.js';
import type { CriterionLibraries } from '../expressions/criterion-libraries.js';

/** Whether the profile reads Selector Objects, Expression Type Objects and the 1.1 runtime-expression grammar. */
export function readsSelectors(profile: RunnerProfile): boolean {
  return profile.featureSet === '1.1';
}

/** The template options of a profile, with the libraries loaded for the document (criteria-options.ts). */
export function templateOptionsFor(profile: RunnerProfile, libraries: CriterionLibraries = {}): TemplateOptions {
  return readsSelectors(profile) ? { dialect: '1.1', selectors: libraries } : {};
}

/**
 * What `$self` gives (Arazzo 1.1, "Establishing the Base URI"): the document's `$self` resolved
 * against where the document was read (an absolute `$self` as is), or without one that location
 * itself, as a URI (`file:///…` for a file). Undefined when neither is known.
 */
export function documentUri(self: string | undefined, location: string | undefined): string | undefined {
  const base = location === undefined ? undefined : /^[a-z][a-z0-9+.-]*:\/\//i.test(location) ? location : pathToFileURL(location).href;
  if (self === undefined) return base;
  try {
    return new URL(self, base).href;
  } catch {
    return self; // a relative $self without a base: as written
  }
}
