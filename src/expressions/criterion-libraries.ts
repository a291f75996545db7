/**
 * The libraries of the v2 criterion types, loaded only when a document uses that type: the one
 * module that imports json-p3, fontoxpath and @xmldom/xmldom (test/unit/architecture.test.ts keeps
 * it so), always with a dynamic import, so that v1 runs and `tool --version` never load them.
 */
import type { JSONPathEnvironment } from 'json-p3';
import { createRegexBudget, guardRegexFunctions, type RegexBudget } from './jsonpath-regex-functions.js';
import { NO_REGEX_TESTER, type RegexTester } from './regex-tester.js';

/** What a jsonpath criterion needs: an RFC 9535 environment, and json-p3's non-standard mode for the Goessner draft. */
export interface JsonPathLibrary {
  rfc9535: JSONPathEnvironment;
  /** json-p3 with `strict: false`: Goessner-era syntax accepted, and still no script evaluated. */
  goessner: JSONPathEnvironment;
  /** The time limit that all the match() and search() tests of one evaluation share. */
  budget: RegexBudget;
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

/** What the libraries are bound to: the regex tester JSONPath's match() and search() use, and where a stopped regex is told. */
export interface LibraryServices {
  /** None (validate, graph: nothing is evaluated): match() and search() run no regex and do not match. */
  regex?: RegexTester;
  /** Hears of a JSONPath regex stopped by its time limit. */
  warn?: (message: string) => void;
}

/** Loads the libraries of the given criterion types (others are ignored), bound to `services`. */
export async function loadCriterionLibraries(types: Iterable<string>, services: LibraryServices = {}): Promise<CriterionLibraries> {
  const wanted = new Set(types);
  const libraries: CriterionLibraries = {};
  if (wanted.has('jsonpath')) {
    const jsonp3 = interop(await import('json-p3'));
    const budget = createRegexBudget();
    libraries.jsonpath = { rfc9535: new jsonp3.JSONPathEnvironment(), goessner: new jsonp3.JSONPathEnvironment({ strict: false }), budget };
    // match() and search() run a document's regex: with the tester given (the run's worker thread),
    // under the time limit. Each environment has its own function register: nothing shared is changed.
    const tester = services.regex ?? NO_REGEX_TESTER;
    guardRegexFunctions(libraries.jsonpath.rfc9535, tester, budget, services.warn);
    guardRegexFunctions(libraries.jsonpath.goessner, tester, budget, services.warn);
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
