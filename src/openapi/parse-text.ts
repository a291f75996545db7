import { findDuplicateKey } from '../arazzo/find-duplicate-key.js';
import { yamlLibrary } from '../arazzo/yaml-library.js';
import { DescriptionError } from './errors.js';

/** Alias expansions allowed, as for the Arazzo document (guards against "billion laughs"). */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses description text (JSON or YAML) into plain data.
 * Throws DescriptionError DESCRIPTION_INVALID naming `location:line:col` on a syntax error,
 * DESCRIPTION_REFUSED when aliases expand past the limit.
 */
export function parseText(text: string, location: string): unknown {
  // Large descriptions are usually JSON; JSON.parse is far faster than a YAML parse. On failure
  // we fall through to YAML, which also reports the position of the error.
  if (looksLikeJson(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // fall through
    }
  }
  const { LineCounter, parseDocument } = yamlLibrary();
  const lineCounter = new LineCounter();
  // Duplicate keys are found by findDuplicateKey, in linear time (the library's check is quadratic).
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const error = doc.errors[0];
  const duplicate = findDuplicateKey(doc);
  if (duplicate !== undefined && (error === undefined || duplicate.offset < error.pos[0])) {
    const { line, col } = lineCounter.linePos(duplicate.offset);
    throw new DescriptionError('DESCRIPTION_INVALID', location, `${location}:${line}:${col}: YAML syntax error: Map keys must be unique; fix the description and try again`);
  }
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    const reason = firstLine(error.message);
    throw new DescriptionError(
      'DESCRIPTION_INVALID',
      location,
      `${location}:${line}:${col}: YAML syntax error: ${reason}; fix the description and try again`,
      { cause: error },
    );
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new DescriptionError(
        'DESCRIPTION_REFUSED',
        location,
        `${location}: YAML aliases expand to too many nodes (more than ${MAX_ALIAS_COUNT} alias uses); refusing to expand a possible "billion laughs" document (write the repeated values out)`,
        { cause: error },
      );
    }
    throw error;
  }
}

function looksLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // skip a BOM and whitespace
    if (c === 0xfeff || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    return c === 0x7b; // '{'
  }
  return false;
}

function firstLine(message: string): string {
  const end = message.indexOf('\n');
  return (end === -1 ? message : message.slice(0, end)).trim();
}
