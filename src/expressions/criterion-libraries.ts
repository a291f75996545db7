/**
 * The libraries of the v2 criterion types, loaded only when a document uses that type: the one
 * module that imports json-p3, fontoxpath and @xmldom/xmldom (test/unit/architecture.test.ts keeps
 * it so), always with a dynamic import, so that v1 runs and `tool --version` never load them.
 */
import type { JSONPathEnvironment } from 'json-p3';
import { guardRegexFunctions } from './jsonpath-regex-functions.js';

/** What a jsonpath criterion needs: an RFC 9535 environment, and json-p3's non-standard mode for the Goessner draft. */
export interface JsonPathLibrary {
  rfc9535: JSONPathEnvironment;
  /** json-p3 with `strict: false`: Goessner-era syntax accepted, and still no script evaluated. */
  goessner: JSONPathEnvironment;
}

/** What an xpath criterion needs: fontoxpath to evaluate, xmldom to parse the XML it reads. */
export interface XPathLibrary {
  fontoxpath: typeof import('fontoxpath');
  xmldom: typeof import('@xmldom/xmldom');
}

/** The libraries loaded for a document: one per criterion type it uses. */
export interface CriterionLibraries {
  jsonpath?: JsonPathLibrary;
  xpath?: XPathLibrary;
}

/** The criterion types that need a library. */
export const TYPES_WITH_LIBRARY: ReadonlySet<string> = new Set(['jsonpath', 'xpath']);

/** Loads the libraries of the given criterion types (others are ignored); `warn` hears of a JSONPath regex stopped by its time limit. */
export async function loadCriterionLibraries(types: Iterable<string>, warn?: (message: string) => void): Promise<CriterionLibraries> {
  const wanted = new Set(types);
  const libraries: CriterionLibraries = {};
  if (wanted.has('jsonpath')) {
    const jsonp3 = interop(await import('json-p3'));
    libraries.jsonpath = { rfc9535: new jsonp3.JSONPathEnvironment(), goessner: new jsonp3.JSONPathEnvironment({ strict: false }) };
    // match() and search() run a document's regex: on the worker thread, under the time limit.
    guardRegexFunctions(libraries.jsonpath.rfc9535, warn);
    guardRegexFunctions(libraries.jsonpath.goessner, warn);
  }
  if (wanted.has('xpath')) {
    const [fontoxpath, xmldom] = await Promise.all([import('fontoxpath'), import('@xmldom/xmldom')]);
    libraries.xpath = { fontoxpath: interop(fontoxpath), xmldom: interop(xmldom) };
  }
  return libraries;
}

// These packages are CommonJS: Node gives their exports as `default` (and, only sometimes, as names too).
function interop<T extends object>(module: T): T {
  const fallback = (module as { default?: T }).default;
  return fallback !== undefined && typeof fallback === 'object' ? fallback : module;
}
