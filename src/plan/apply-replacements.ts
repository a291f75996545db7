/**
 * `requestBody.replacements` (v2): applied in order to the evaluated payload, before the request
 * is built. A JSON payload takes RFC 6901 pointers whose target is set (src/expressions/pointer-set.ts); an XML payload
 * (a string, with a content type that contains "xml") takes XPaths whose nodes get new text.
 * Arazzo 1.1's `targetSelectorType` says which, and adds `jsonpath`: every node it selects is set.
 */
import type { RequestBody } from '../arazzo/model.js';
import { compileTemplate, type TemplateOptions } from '../expressions/compile-template.js';
import type { JsonPathLibrary, XPathLibrary } from '../expressions/criterion-libraries.js';
import { compileJsonPath } from '../expressions/jsonpath-criterion.js';
import { libraryVersion } from '../expressions/selector-object.js';
import { PointerSyntaxError } from '../expressions/errors.js';
import { setAtPointer, PointerSetError } from '../expressions/pointer-set.js';
import type { Template, TemplateWarning } from '../expressions/template-ast.js';
import { setXmlText, XmlReplaceError } from '../expressions/xml-replace.js';
import { mediaTypeEssence } from '../openapi/media-type.js';

/** The replacements of a step's body, compiled once; `contentType` is the body's (the step's, else the operation's first). */
export interface CompiledReplacements {
  contentType?: string;
  items: Array<{ target: string; value: Template } & TargetType>;
  /** json-p3, when a target is a JSONPath (loaded for the document: criteria-options.ts). */
  jsonpath?: JsonPathLibrary;
}

/** How a target is read (Arazzo 1.1 `targetSelectorType`); absent: by the body's content type (XPath for XML, else a JSON pointer). */
export interface TargetType {
  type?: string;
  version?: string;
}

/** Thrown when a replacement cannot be applied: the step fails before its request is sent, and the message names the target. */
export class ReplacementError extends Error {
  override name = 'ReplacementError';
}

/** Compiles each replacement's `value` like a payload value (an expression keeps its JSON type); template warnings go to `warnings`. */
export function compileReplacements(body: RequestBody, contentType: string | undefined, warnings: TemplateWarning[], templates: TemplateOptions = {}): CompiledReplacements {
  const items = body.replacements.flatMap((replacement) => {
    if (replacement.target === undefined) return []; // MISSING_FIELD: the document did not validate
    const local: TemplateWarning[] = [];
    const value = compileTemplate(replacement.value ?? null, local, templates);
    for (const w of local) warnings.push({ ...w, pointer: `${replacement.pointer}/value${w.pointer}` });
    // targetSelectorType is read only where Selector Objects are (Arazzo 1.1).
    const type = templates.selectors === undefined ? undefined : replacement.targetSelectorType;
    const how: TargetType = type === undefined ? {} : replacement.targetSelectorVersion === undefined ? { type } : { type, version: replacement.targetSelectorVersion };
    return [{ target: replacement.target, value, ...how }];
  });
  const compiled: CompiledReplacements = contentType === undefined ? { items } : { contentType, items };
  const jsonpath = templates.selectors?.jsonpath;
  if (jsonpath !== undefined && items.some((item) => item.type === 'jsonpath')) compiled.jsonpath = jsonpath;
  return compiled;
}

/** Whether the body's replacements are XPaths (the content type names XML), so fontoxpath must be loaded. */
export function replacesXml(replacements: CompiledReplacements): boolean {
  if (replacements.items.some((item) => item.type === 'xpath')) return true;
  return replacements.contentType !== undefined && mediaTypeEssence(replacements.contentType).includes('xml') && replacements.items.some((item) => item.type === undefined);
}

/**
 * The payload with the evaluated replacements applied in order; the payload and the values given
 * are not changed. A string payload of a JSON content type that is JSON text is read first. `xpath` is
 * needed for an XML payload. Throws ReplacementError naming the target (a missing parent, an index
 * out of range, an XPath that selects nothing) or the payload that cannot take replacements.
 */
export function applyReplacements(payload: unknown, replacements: ReadonlyArray<{ target: string; value: unknown } & TargetType>, contentType: string | undefined, xpath?: XPathLibrary, jsonpath?: JsonPathLibrary): unknown {
  const essence = mediaTypeEssence(contentType ?? 'application/json');
  const typed = replacements.some((replacement) => replacement.type !== undefined);
  if (typed) return applyTyped(payload, replacements, essence, xpath, jsonpath);
  if (essence.includes('xml') && typeof payload === 'string') {
    if (xpath === undefined) throw new Error('applyReplacements: an XML payload needs the XPath library');
    try {
      return setXmlText(xpath, payload, replacements.map(({ target, value }) => ({ target, text: textOf(value) })));
    } catch (error) {
      if (!(error instanceof XmlReplaceError)) throw error;
      throw new ReplacementError(error.target === undefined ? `requestBody.replacements: ${error.message}` : `replacement target ${JSON.stringify(error.target)}: ${error.message}`);
    }
  }
  // setAtPointer copies what it changes: the rendered payload and the values (inputs, outputs of earlier steps) stay as they were.
  let document = jsonDocument(payload, essence);
  for (const { target, value } of replacements) {
    try {
      document = setAtPointer(document, target, value);
    } catch (error) {
      if (!(error instanceof PointerSetError) && !(error instanceof PointerSyntaxError)) throw error;
      throw new ReplacementError(`replacement target ${JSON.stringify(target)}: ${error.message}`);
    }
  }
  return document;
}

/**
 * Replacements whose `targetSelectorType` is given (Arazzo 1.1), applied in order: an `xpath`
 * target to XML text, a `jsonpointer` one by setAtPointer, a `jsonpath` one to every node it
 * selects (none: the step fails, naming the target); one without a type as its content type says.
 */
function applyTyped(payload: unknown, replacements: ReadonlyArray<{ target: string; value: unknown } & TargetType>, essence: string, xpath?: XPathLibrary, jsonpath?: JsonPathLibrary): unknown {
  let document = payload;
  for (const replacement of replacements) {
    const type = replacement.type ?? (essence.includes('xml') && typeof document === 'string' ? 'xpath' : 'jsonpointer');
    if (type === 'xpath') {
      if (typeof document !== 'string') throw new ReplacementError(`replacement target ${JSON.stringify(replacement.target)}: an xpath target needs an XML payload (a string), and this payload is structured data`);
      document = applyReplacements(document, [{ target: replacement.target, value: replacement.value }], 'application/xml', xpath);
    } else if (type === 'jsonpath') {
      document = setAtJsonPath(jsonDocument(document, essence.includes('json') ? essence : 'application/json'), replacement, jsonpath);
    } else {
      document = applyReplacements(document, [{ target: replacement.target, value: replacement.value }], essence.includes('xml') ? 'application/json' : essence);
    }
  }
  return document;
}

/** `document` with `value` set at every node the JSONPath `target` selects; throws ReplacementError when it selects none or does not compile. */
function setAtJsonPath(document: unknown, { target, value, version }: { target: string; value: unknown; version?: string }, library?: JsonPathLibrary): unknown {
  if (library === undefined) throw new Error('applyReplacements: a jsonpath target needs the JSONPath library');
  let pointers: string[];
  try {
    const compiled = compileJsonPath(library, target, libraryVersion('jsonpath', version));
    pointers = compiled.budget.within(() => [...compiled.query.query(document as never)].map((node) => node.toPointer().toString()));
  } catch (error) {
    throw new ReplacementError(`replacement target ${JSON.stringify(target)}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (pointers.length === 0) throw new ReplacementError(`replacement target ${JSON.stringify(target)} (jsonpath) selects nothing in the payload`);
  let out = document;
  for (const pointer of pointers) out = setAtPointer(out, pointer, value);
  return out;
}

/** The payload as a JSON value to add into: structured as is, JSON text (`{…}` or `[…]`, as the body builder reads it) parsed. */
function jsonDocument(payload: unknown, essence: string): unknown {
  if (typeof payload !== 'string') return payload;
  const first = payload.trimStart()[0];
  if (essence.includes('json') && first !== '{' && first !== '[') return payload; // a JSON string value
  if (!essence.includes('json')) {
    throw new ReplacementError(`requestBody.replacements: a ${essence} payload given as a string has no members to replace; give the payload as an object or array`);
  }
  try {
    return JSON.parse(payload) as unknown;
  } catch (error) {
    throw new ReplacementError(`requestBody.replacements: the payload is JSON text that does not parse (${(error as Error).message})`);
  }
}

/** A replacement value as XML text: a string as is, null as nothing, anything else as its JSON text. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}
