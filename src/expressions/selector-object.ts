/**
 * Arazzo 1.1's Selector Object (`{context, selector, type}`) and Expression Type Object
 * (`{type, version}`): how a document value is recognised as one, and the types and versions
 * allowed. A 1.0 document has neither: there such a mapping is plain data.
 */
import type { Expression } from './ast.js';
import { GOESSNER_VERSION } from './jsonpath-criterion.js';

/** The selector expression types of Arazzo 1.1. */
export type SelectorType = 'jsonpath' | 'xpath' | 'jsonpointer';

/** The versions each type allows (Expression Type Object); the first is the default. */
export const EXPRESSION_TYPE_VERSIONS: Readonly<Record<SelectorType, readonly string[]>> = {
  jsonpath: ['rfc9535', GOESSNER_VERSION],
  xpath: ['xpath-31', 'xpath-30', 'xpath-20', 'xpath-10'],
  jsonpointer: ['rfc6901'],
};

/** Whether `type` names a selector expression type. */
export function isSelectorType(type: string): type is SelectorType {
  return Object.hasOwn(EXPRESSION_TYPE_VERSIONS, type);
}

/**
 * The version a library is asked for: undefined for a type's default (RFC 9535, XPath 3.1, RFC 6901),
 * else the version as written (`draft-goessner-dispatch-jsonpath-00`, `xpath-30`...).
 */
export function libraryVersion(type: string, version: string | undefined): string | undefined {
  if (version === undefined || !isSelectorType(type)) return version;
  return version === EXPRESSION_TYPE_VERSIONS[type][0] ? undefined : version;
}

/** Why a `type` (and `version`) is not an allowed expression type, in words naming the allowed values; undefined when it is. */
export function expressionTypeProblem(type: string, version: string | undefined, allowed: readonly string[] = Object.keys(EXPRESSION_TYPE_VERSIONS)): string | undefined {
  if (!allowed.includes(type)) return `type "${type}" is not one of ${allowed.join(', ')}`;
  if (version === undefined || !isSelectorType(type)) return undefined;
  const versions = EXPRESSION_TYPE_VERSIONS[type];
  return versions.includes(version) ? undefined : `${type} version "${version}" is not one of ${versions.join(', ')}`;
}

/** A Selector Object as written, its fields read. */
export interface SelectorObject {
  context: string;
  selector: string;
  type: string;
  version?: string;
}

const SELECTOR_KEYS = ['context', 'selector', 'type'];

/**
 * Whether a mapping is shaped as a Selector Object: exactly the keys `context`, `selector` and
 * `type`. The Selector Object takes no extensions, so a mapping with any other key (an `x-` one
 * too) is data: a payload member `{context, selector, type, note}` is sent as written.
 */
export function isSelectorShaped(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === SELECTOR_KEYS.length && SELECTOR_KEYS.every((key) => Object.hasOwn(value, key));
}

/** The fields of a selector-shaped mapping, or why they are not a Selector Object's (a field of the wrong type). */
export function readSelectorObject(value: Record<string, unknown>): SelectorObject | { problem: string } {
  const { context, selector, type } = value;
  if (typeof context !== 'string') return { problem: 'its "context" must be a runtime expression (a string)' };
  if (typeof selector !== 'string') return { problem: 'its "selector" must be a string' };
  if (typeof type === 'string') return { context, selector, type };
  if (typeof type === 'object' && type !== null && !Array.isArray(type) && typeof (type as { type?: unknown }).type === 'string') {
    const version = (type as { version?: unknown }).version;
    if (version !== undefined && typeof version !== 'string') return { problem: 'its type\'s "version" must be a string' };
    return version === undefined ? { context, selector, type: (type as { type: string }).type } : { context, selector, type: (type as { type: string }).type, version };
  }
  return { problem: 'its "type" must be jsonpath, xpath or jsonpointer, or an expression type object {type, version}' };
}

/** How a selector reads in messages: `jsonpath selector "$.a" on $response.body`. */
export function describeSelector(selector: { type: string; selector: string; context: Expression }): string {
  return `${selector.type} selector ${JSON.stringify(selector.selector)} on ${selector.context.source}`;
}
