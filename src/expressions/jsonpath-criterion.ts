/** The `jsonpath` criterion type (v2): RFC 9535 through json-p3, or the Goessner draft through its non-standard mode. */
import type { JSONPathQuery } from 'json-p3';
import type { JsonPathLibrary } from './criterion-libraries.js';

/** The criterion expression type version of the pre-RFC syntax. */
export const GOESSNER_VERSION = 'draft-goessner-dispatch-jsonpath-00';

/** A compiled JSONPath query. */
export type CompiledJsonPath = JSONPathQuery;

/**
 * Compiles a jsonpath criterion's condition: RFC 9535, or with `version` draft-goessner-dispatch-jsonpath-00
 * the older syntax in json-p3's non-standard mode. Script expressions (`[(…)]`) are refused, never
 * evaluated. Throws Error (json-p3's JSONPathSyntaxError, or an unknown version) for a validation error.
 */
export function compileJsonPath(library: JsonPathLibrary, query: string, version?: string): CompiledJsonPath {
  if (version === undefined) return library.rfc9535.compile(query);
  if (version !== GOESSNER_VERSION) throw new Error(`unknown jsonpath version "${version}"; use ${GOESSNER_VERSION} or no version (RFC 9535)`);
  // Goessner's `[(expr)]` is JavaScript run by the host; tool never evaluates script.
  if (/\[\s*\(/.test(query)) throw new Error('script expressions "[(…)]" are not supported: tool never evaluates script; use a filter "[?…]" or an index');
  return library.goessner.compile(query);
}

/** The values the query selects, the context value itself being the root node. Throws json-p3's errors (a recursion limit). */
export function jsonPathValues(query: CompiledJsonPath, value: unknown): unknown[] {
  return query.query(value as never).values();
}

/** Whether the query selects at least one node of the context value. */
export function jsonPathHolds(query: CompiledJsonPath, value: unknown): boolean {
  return !query.query(value as never).empty();
}
