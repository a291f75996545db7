/**
 * `requestBody.replacements` (v2): applied in order to the evaluated payload, before the request
 * is built. A JSON payload takes RFC 6901 pointers whose target is set (src/expressions/pointer-set.ts); an XML payload
 * (a string, with a content type that contains "xml") takes XPaths whose nodes get new text.
 */
import type { RequestBody } from '../arazzo/model.js';
import { compileTemplate } from '../expressions/compile-template.js';
import type { XPathLibrary } from '../expressions/criterion-libraries.js';
import { PointerSyntaxError } from '../expressions/errors.js';
import { setAtPointer, PointerSetError } from '../expressions/pointer-set.js';
import type { Template, TemplateWarning } from '../expressions/template-ast.js';
import { setXmlText, XmlReplaceError } from '../expressions/xml-replace.js';
import { mediaTypeEssence } from '../openapi/media-type.js';

/** The replacements of a step's body, compiled once; `contentType` is the body's (the step's, else the operation's first). */
export interface CompiledReplacements {
  contentType?: string;
  items: Array<{ target: string; value: Template }>;
}

/** Thrown when a replacement cannot be applied: the step fails before its request is sent, and the message names the target. */
export class ReplacementError extends Error {
  override name = 'ReplacementError';
}

/** Compiles each replacement's `value` like a payload value (an expression keeps its JSON type); template warnings go to `warnings`. */
export function compileReplacements(body: RequestBody, contentType: string | undefined, warnings: TemplateWarning[]): CompiledReplacements {
  const items = body.replacements.flatMap((replacement) => {
    if (replacement.target === undefined) return []; // MISSING_FIELD: the document did not validate
    const local: TemplateWarning[] = [];
    const value = compileTemplate(replacement.value ?? null, local);
    for (const w of local) warnings.push({ ...w, pointer: `${replacement.pointer}/value${w.pointer}` });
    return [{ target: replacement.target, value }];
  });
  return contentType === undefined ? { items } : { contentType, items };
}

/** Whether the body's replacements are XPaths (the content type names XML), so fontoxpath must be loaded. */
export function replacesXml(replacements: CompiledReplacements): boolean {
  return replacements.contentType !== undefined && mediaTypeEssence(replacements.contentType).includes('xml');
}

/**
 * The payload with the evaluated replacements applied in order; the payload and the values given
 * are not changed. A string payload of a JSON content type that is JSON text is read first. `xpath` is
 * needed for an XML payload. Throws ReplacementError naming the target (a missing parent, an index
 * out of range, an XPath that selects nothing) or the payload that cannot take replacements.
 */
export function applyReplacements(payload: unknown, replacements: ReadonlyArray<{ target: string; value: unknown }>, contentType: string | undefined, xpath?: XPathLibrary): unknown {
  const essence = mediaTypeEssence(contentType ?? 'application/json');
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
