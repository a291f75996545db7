import { isAlias, isMap, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { MAX_DOCUMENT_DEPTH } from './check-depth.js';
import { ArazzoLoadError } from './errors.js';
import { formatExcerpt } from './format-excerpt.js';
import type { Position } from './model.js';

/**
 * Parses the text with the `yaml` library's full syntax tree and returns its value: the path that
 * gives users the errors, with `file:line:col` and a caret excerpt. Throws ArazzoLoadError
 * (YAML_SYNTAX, ALIAS_LIMIT, NOT_AN_OBJECT) when the text is not a YAML mapping, and TOO_DEEP when
 * it nests too deep for the library to read.
 */
export function parseWithYaml(text: string, file: string, maxAliasCount: number): unknown {
  const lines = new LineCounter();
  const fail = (code: 'YAML_SYNTAX' | 'NOT_AN_OBJECT' | 'ALIAS_LIMIT' | 'TOO_DEEP', message: string, pos?: Position, hint?: string): never => {
    const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
    throw new ArazzoLoadError(code, `${where}: ${message}`, file, pos, hint ?? (pos ? indentHint(formatExcerpt(text, pos)) : undefined));
  };
  const tooDeep = `the document nests deeper than ${MAX_DOCUMENT_DEPTH} levels`;
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    if (error instanceof RangeError) fail('TOO_DEEP', `${tooDeep}; it is too deep to read`);
    throw error;
  }

  const first = doc.errors[0];
  if (first) {
    const pos = lines.linePos(first.pos[0]);
    // `yaml` reports running out of stack on a deep document as an error at the node it was reading.
    if (STACK_OVERFLOW.test(first.message)) fail('TOO_DEEP', tooDeep, pos);
    const message = first.code === 'DUPLICATE_KEY' ? duplicateKeyMessage(text, first.pos[0]) : first.message;
    fail('YAML_SYNTAX', `invalid YAML: ${message}`, pos);
  }
  // Every alias is written `*name`: without a '*' there is none, and the tree walk is skipped.
  const dangling = text.includes('*') ? findUnresolvedAlias(doc) : undefined;
  if (dangling !== undefined) {
    fail('YAML_SYNTAX', `invalid YAML: alias *${dangling.name} has no anchor &${dangling.name} before it`, lines.linePos(dangling.offset));
  }
  if (!isMap(doc.contents)) {
    const what = doc.contents === null ? 'empty' : isSeq(doc.contents) ? 'a list' : 'a single value';
    fail('NOT_AN_OBJECT', `the document is ${what}; an Arazzo document is a mapping with arazzo, info, sourceDescriptions and workflows`, doc.contents ? lines.linePos(doc.contents.range?.[0] ?? 0) : undefined, 'Check that this is the right file: an Arazzo document starts with `arazzo: 1.0.1`.');
  }

  try {
    return doc.toJS({ maxAliasCount }) as unknown;
  } catch (error) {
    if (error instanceof RangeError) fail('TOO_DEEP', tooDeep);
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      fail('ALIAS_LIMIT', `YAML aliases expand to too many nodes (more than ${maxAliasCount} alias uses); refusing to expand a possible "billion laughs" document`, undefined, 'Write the repeated values out, or use fewer nested aliases.');
    }
    throw error;
  }
}

const STACK_OVERFLOW = /maximum call stack/i;

// runCli prints the hint as "  <hint>"; indent the following lines the same way so the caret lines up.
function indentHint(excerpt: string): string | undefined {
  return excerpt === '' ? undefined : excerpt.split('\n').join('\n  ');
}

function duplicateKeyMessage(text: string, offset: number): string {
  const key = /^(?:"([^"\n]*)"|'([^'\n]*)'|([^:\n]*?))\s*:/.exec(text.slice(offset));
  const name = key ? (key[1] ?? key[2] ?? key[3] ?? '') : '';
  return name === '' ? 'a mapping has the same key twice' : `key "${name}" appears twice in the same mapping`;
}

function findUnresolvedAlias(doc: Document): { name: string; offset: number } | undefined {
  let found: { name: string; offset: number } | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.resolve(doc) === undefined) {
        found = { name: node.source, offset: node.range?.[0] ?? 0 };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
