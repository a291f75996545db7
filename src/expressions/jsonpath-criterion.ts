/** The `jsonpath` criterion type (v2): RFC 9535 through json-p3, or the Goessner draft through its non-standard mode. */
import type { JSONPathQuery } from 'json-p3';
import type { JsonPathLibrary } from './criterion-libraries.js';
import type { RegexBudget } from './jsonpath-regex-functions.js';

/** The criterion expression type version of the pre-RFC syntax. */
export const GOESSNER_VERSION = 'draft-goessner-dispatch-jsonpath-00';

/** A compiled JSONPath query, and the time budget its match() and search() calls share in one evaluation. */
export interface CompiledJsonPath {
  query: JSONPathQuery;
  budget: RegexBudget;
}

/**
 * Compiles a jsonpath criterion's condition: RFC 9535, or with `version` draft-goessner-dispatch-jsonpath-00
 * the older syntax in json-p3's non-standard mode. Script expressions (`[(…)]`) are refused, never
 * evaluated. Throws Error (json-p3's JSONPathSyntaxError, or an unknown version) for a validation error.
 */
export function compileJsonPath(library: JsonPathLibrary, query: string, version?: string): CompiledJsonPath {
  if (version === undefined) return { query: library.rfc9535.compile(query), budget: library.budget };
  if (version !== GOESSNER_VERSION) throw new Error(`unknown jsonpath version "${version}"; use ${GOESSNER_VERSION} or no version (RFC 9535)`);
  // Goessner's `[(expr)]` is JavaScript run by the host; tool never evaluates script.
  if (/\[\s*\(/.test(query)) throw new Error('script expressions "[(…)]" are not supported: tool never evaluates script; use a filter "[?…]" or an index');
  return { query: library.goessner.compile(query), budget: library.budget };
}

/**
 * The values the query selects, the context value itself being the root node; the regexes of its
 * filters share one time limit. Throws json-p3's errors (a recursion limit).
 */
export function jsonPathValues(compiled: CompiledJsonPath, value: unknown): unknown[] {
  return compiled.budget.within(() => compiled.query.query(value as never).values());
}

/** Whether the query selects at least one node of the context value; the regexes of its filters share one time limit. */
export function jsonPathHolds(compiled: CompiledJsonPath, value: unknown): boolean {
  return compiled.budget.within(() => !compiled.query.query(value as never).empty());
}
