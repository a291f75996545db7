/** The `xpath` criterion type (v2): the context value parsed as XML by xmldom, the expression evaluated by fontoxpath. */
import type { XPathLibrary } from './criterion-libraries.js';
import { contextText } from './regex-criterion.js';
import { REGEX_TIME_LIMIT_MS } from './regex-tester.js';
import { TimeLimitError, withinTimeLimit } from './time-limit.js';

/** The versions a `{type: xpath, version}` may name; none means XPath 3.1. */
export const XPATH_VERSIONS: readonly string[] = ['xpath-31', 'xpath-30', 'xpath-20', 'xpath-10'];

/** XML larger than this is not parsed: the criterion does not hold. */
export const MAX_XML_CHARS = 5 * 1024 * 1024;

/**
 * How long one XPath evaluation (a criterion, or one replacement target) may run: the regex limit,
 * since XPath's matches(), replace() and tokenize() run a document's regex. Parsing the XML (linear,
 * at most MAX_XML_CHARS) is not counted.
 */
export const XPATH_TIME_LIMIT_MS = REGEX_TIME_LIMIT_MS;

/** Why an XPath stopped by XPATH_TIME_LIMIT_MS did not finish, for messages. */
export function stoppedXPath(error: TimeLimitError): string {
  return `the expression ran for more than ${error.limitMs / 1000} s and was stopped (a regex that backtracks without end in matches(), replace() or tokenize(), or a loop over too many items, never finishes)`;
}

/**
 * Evaluates with fontoxpath on this thread under XPATH_TIME_LIMIT_MS: `evaluate` is the call.
 * Throws TimeLimitError when the limit stops it, and what fontoxpath throws.
 */
export function evaluateWithinLimit<T>(evaluate: () => T): T {
  return withinTimeLimit(evaluate, XPATH_TIME_LIMIT_MS);
}

/**
 * Checks an xpath criterion's expression statically (its syntax, without a document). Throws Error
 * with fontoxpath's message (XPST0003…) for a validation error, and for an unknown version.
 */
export function checkXPath(library: XPathLibrary, expression: string, version?: string): void {
  if (version !== undefined && !XPATH_VERSIONS.includes(version)) throw new Error(`unknown xpath version "${version}"; use one of ${XPATH_VERSIONS.join(', ')}, or none (XPath 3.1)`);
  const empty = new library.xmldom.DOMParser().parseFromString('<x/>', 'text/xml');
  try {
    library.fontoxpath.parseScript(expression, { language: library.fontoxpath.evaluateXPath.XPATH_3_1_LANGUAGE }, empty as never);
  } catch (error) {
    throw new Error(firstLine(error));
  }
}

/**
 * Whether the expression's effective boolean value is true against the context value read as XML
 * (a string as is, a number or boolean as text). `reason` says why it could not be evaluated when it
 * could not (no context, not XML, too large, an evaluation error, stopped by XPATH_TIME_LIMIT_MS):
 * then it does not hold. Never throws.
 */
export function xpathHolds(library: XPathLibrary, expression: string, value: unknown): { holds: boolean; reason?: string } {
  const text = typeof value === 'object' && value !== null && !(value instanceof Uint8Array) ? undefined : contextText(value);
  if (text === undefined) return { holds: false, reason: value === undefined || value === null ? 'the context has no value' : 'the context value is not XML text' };
  if (text.length > MAX_XML_CHARS) return { holds: false, reason: `the context value is larger than ${MAX_XML_CHARS / 1024 / 1024} MiB` };
  let document: unknown;
  try {
    document = parseXml(library, text);
  } catch (error) {
    return { holds: false, reason: `the context value is not well-formed XML: ${firstLine(error)}` };
  }
  try {
    const holds = evaluateWithinLimit(() => library.fontoxpath.evaluateXPathToBoolean(expression, document, null, null, { language: library.fontoxpath.evaluateXPath.XPATH_3_1_LANGUAGE }));
    return { holds };
  } catch (error) {
    if (error instanceof TimeLimitError) return { holds: false, reason: stoppedXPath(error) };
    return { holds: false, reason: firstLine(error) };
  }
}

/**
 * Parses XML text with xmldom, throwing on any error (not on warnings). xmldom never fetches
 * external entities and does not expand entities a DTD declares (a "billion laughs" document is
 * refused as an unknown entity), so parsing stays linear.
 */
export function parseXml(library: XPathLibrary, text: string): unknown {
  const parser = new library.xmldom.DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  });
  return parser.parseFromString(text, 'text/xml');
}

/** The line of an xmldom or fontoxpath error that says what is wrong (fontoxpath puts an excerpt first, then `Error: XPST0003: …`). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const coded = /(?:^|\n)\s*(?:Error: )?([A-Z]{4}\d{4}: [^\n]*)/.exec(message)?.[1];
  if (coded !== undefined) return coded;
  return message.replace(/^Reporting \w+ "(.*?)" caused Error: .*$/s, '$1').split('\n')[0] ?? message;
}
