/**
 * Evaluates an Arazzo 1.1 Selector Object: its context expression first (it must give structured
 * data: a JSON value, or XML text for xpath), then its selector (with `{$…}` filled in) on that.
 * jsonpath: one node gives its value, several an array of their values; jsonpointer: the value at
 * the pointer; xpath: a node gives its string value, several an array of strings, an atomic result
 * itself. Nothing selected is "resolves to nothing", as for an expression.
 */
import type { ExpressionContext } from './context.js';
import { fillEmbedded } from './embedded-condition.js';
import { evaluateExpression } from './evaluate-expression.js';
import { parsePointer, resolvePointer } from './json-pointer.js';
import { compileJsonPath, jsonPathValues } from './jsonpath-criterion.js';
import { contextText } from './regex-criterion.js';
import { libraryVersion } from './selector-object.js';
import type { CompiledSelector } from './template-ast.js';
import { TimeLimitError } from './time-limit.js';
import { evaluateWithinLimit, firstLine, MAX_XML_CHARS, parseXml, stoppedXPath } from './xpath-criterion.js';

/** A selector's value, or why it has none (for the message of the step it fails, or a dry run). */
export type SelectorResult = { value: unknown } | { missing: string };

/** The value the selector selects in `ctx`. Never throws for the document's data; throws Error when the library its type needs was not loaded (a bug). */
export function evaluateSelector(selector: CompiledSelector, ctx: ExpressionContext): SelectorResult {
  const context = evaluateExpression(selector.context, ctx);
  if (context === undefined) return { missing: `its context ${selector.context.source} resolved to nothing` };
  let text = selector.selector;
  if (selector.embedded !== undefined) {
    const filled = fillEmbedded(selector.embedded, ctx);
    if ('missing' in filled) return { missing: `${filled.missing} resolved to nothing` };
    text = filled.text;
  }
  switch (selector.type) {
    case 'jsonpointer':
      return jsonPointerValue(structured(context), text);
    case 'jsonpath':
      return jsonPathValue(selector, structured(context), text);
    case 'xpath':
      return xpathValue(selector, context, text);
    default:
      return { missing: `type "${selector.type}" is not jsonpath, xpath or jsonpointer` };
  }
}

/** The context as JSON data: a value as is, JSON text (an object or array) parsed; undefined for other text. */
export function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const first = value.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function jsonPointerValue(data: unknown, pointer: string): SelectorResult {
  if (data === undefined) return { missing: 'its context is not structured data' };
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch (error) {
    return { missing: `${JSON.stringify(pointer)} is not a JSON pointer (${(error as Error).message})` };
  }
  const value = resolvePointer(data, tokens);
  return value === undefined ? { missing: 'the pointer names no value in its context' } : { value };
}

function jsonPathValue(selector: CompiledSelector, data: unknown, text: string): SelectorResult {
  if (data === undefined) return { missing: 'its context is not structured data' };
  const library = selector.libraries?.jsonpath;
  if (library === undefined) throw new Error('evaluateSelector: the jsonpath library was not loaded');
  let values: unknown[];
  try {
    values = jsonPathValues(compileJsonPath(library, text, libraryVersion('jsonpath', selector.version)), data);
  } catch (error) {
    return { missing: firstLine(error) };
  }
  if (values.length === 0) return { missing: 'it selects no node' };
  return { value: values.length === 1 ? values[0] : values };
}

function xpathValue(selector: CompiledSelector, context: unknown, text: string): SelectorResult {
  const library = selector.libraries?.xpath;
  if (library === undefined) throw new Error('evaluateSelector: the xpath library was not loaded');
  const xml = typeof context === 'object' && context !== null && !(context instanceof Uint8Array) ? undefined : contextText(context);
  if (xml === undefined) return { missing: 'its context is not XML text' };
  if (xml.length > MAX_XML_CHARS) return { missing: `its context is larger than ${MAX_XML_CHARS / 1024 / 1024} MiB` };
  let document: unknown;
  try {
    document = parseXml(library, xml);
  } catch (error) {
    return { missing: `its context is not well-formed XML: ${firstLine(error)}` };
  }
  let items: unknown[];
  try {
    const { fontoxpath } = library;
    // Every version is evaluated as XPath 3.1, the only one fontoxpath implements (docs/arazzo-coverage.md).
    items = evaluateWithinLimit(() => fontoxpath.evaluateXPath(text, document as never, null, null, fontoxpath.evaluateXPath.ALL_RESULTS_TYPE, { language: fontoxpath.evaluateXPath.XPATH_3_1_LANGUAGE })) as unknown[];
  } catch (error) {
    return { missing: error instanceof TimeLimitError ? stoppedXPath(error) : firstLine(error) };
  }
  if (items.length === 0) return { missing: 'it selects nothing' };
  const values = items.map(stringValue);
  return { value: values.length === 1 ? values[0] : values };
}

/** A node's string value (an attribute's value, an element's text); an atomic value as is. */
function stringValue(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || !('nodeType' in item)) return item;
  const node = item as { nodeType: number; value?: string; nodeValue?: string | null; textContent?: string | null };
  if (node.nodeType === 2) return node.value ?? node.nodeValue ?? '';
  if (node.nodeType === 9) return (node as unknown as { documentElement?: { textContent?: string | null } }).documentElement?.textContent ?? '';
  return node.textContent ?? node.nodeValue ?? '';
}
