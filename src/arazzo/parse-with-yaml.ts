import type { Document } from 'yaml';
import { MAX_DOCUMENT_DEPTH } from './check-depth.js';
import { ArazzoLoadError } from './errors.js';
import { findDuplicateKey } from './find-duplicate-key.js';
import { formatExcerpt } from './format-excerpt.js';
import type { Position } from './model.js';
import { isStackOverflow } from '../expressions/stringify-json.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * Parses the text with the `yaml` library (the one YAML parser) and returns its value, and whether
 * the text uses aliases (its value may then share subtrees). Errors name `file:line:col`, with a
 * caret excerpt. Throws ArazzoLoadError
 * (YAML_SYNTAX, ALIAS_LIMIT, NOT_AN_OBJECT) when the text is not a YAML mapping, and TOO_DEEP when
 * it nests too deep for the library to read.
 */
export function parseWithYaml(text: string, file: string, maxAliasCount: number): { value: unknown; aliased: boolean } {
  const { isMap, isSeq, LineCounter, parseDocument } = yamlLibrary();
  const lines = new LineCounter();
  const fail = (code: 'YAML_SYNTAX' | 'NOT_AN_OBJECT' | 'ALIAS_LIMIT' | 'TOO_DEEP', message: string, pos?: Position, hint?: string): never => {
    const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
    throw new ArazzoLoadError(code, `${where}: ${message}`, file, pos, hint ?? (pos ? indentHint(formatExcerpt(text, pos)) : undefined));
  };
  const tooDeep = `the document nests deeper than ${MAX_DOCUMENT_DEPTH} levels`;
  let doc: Document;
  try {
    // Duplicate keys are found by findDuplicateKey, in linear time (the library's check is quadratic).
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    if (isStackOverflow(error)) fail('TOO_DEEP', `${tooDeep}; it is too deep to read`);
    throw error;
  }

  const first = doc.errors[0];
  const duplicate = findDuplicateKey(doc);
  // The library reports a duplicate key in the order of the text, among its other errors.
  if (duplicate !== undefined && (first === undefined || duplicate.offset < first.pos[0])) {
    fail('YAML_SYNTAX', `invalid YAML: ${duplicateKeyMessage(text, duplicate.offset)}`, lines.linePos(duplicate.offset));
  }
  if (first) {
    const pos = lines.linePos(first.pos[0]);
    // `yaml` reports running out of stack on a deep document as an error at the node it was reading.
    if (STACK_OVERFLOW.test(first.message)) fail('TOO_DEEP', tooDeep, pos);
    const indent = INDENT_CODES.has(first.code) ? indentationProblem(text, pos.line) : undefined;
    if (indent) fail('YAML_SYNTAX', `invalid YAML: ${indent.message}`, indent.pos);
    fail('YAML_SYNTAX', `invalid YAML: ${first.message}`, pos);
  }
  // Every alias is written `*name`: without a '*' there is none, and the tree walk is skipped.
  const aliases: AliasScan = text.includes('*') ? readAliases(doc) : { any: false };
  const dangling = aliases.dangling;
  if (dangling !== undefined) {
    fail('YAML_SYNTAX', `invalid YAML: alias *${dangling.name} has no anchor &${dangling.name} before it`, lines.linePos(dangling.offset));
  }
  if (!isMap(doc.contents)) {
    const what = doc.contents === null ? 'empty' : isSeq(doc.contents) ? 'a list' : 'a single value';
    fail('NOT_AN_OBJECT', `the document is ${what}; an Arazzo document is a mapping with arazzo, info, sourceDescriptions and workflows`, doc.contents ? lines.linePos(doc.contents.range?.[0] ?? 0) : undefined, 'Check that this is the right file: an Arazzo document starts with `arazzo: 1.0.1`.');
  }

  try {
    return { value: doc.toJS({ maxAliasCount }) as unknown, aliased: aliases.any };
  } catch (error) {
    if (isStackOverflow(error)) fail('TOO_DEEP', tooDeep);
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      fail('ALIAS_LIMIT', `YAML aliases expand to too many nodes (more than ${maxAliasCount} alias uses); refusing to expand a possible "billion laughs" document`, undefined, 'Write the repeated values out, or use fewer nested aliases.');
    }
    throw error;
  }
}

const STACK_OVERFLOW = /maximum call stack/i;

/** The parser's codes for a line indented wrongly; its own wording ("Sequence item without - indicator") puts the caret at column 1. */
const INDENT_CODES = new Set(['BAD_INDENT', 'MISSING_CHAR', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);

/**
 * Finds the line whose indentation is wrong near the parser's error at `errorLine` and says what
 * is wrong with it, with a position at its first character; undefined when the indentation looks
 * consistent (then the parser's message is shown).
 */
function indentationProblem(text: string, errorLine: number): { message: string; pos: Position } | undefined {
  const lines = text.split(/\r\n|\n|\r/);
  const indentOf = (line: string): number => /^ */.exec(line)![0].length;
  const meaningful = (line: string | undefined): boolean => line !== undefined && line.trim() !== '' && !line.trimStart().startsWith('#');
  const previous = (index: number): number => {
    let i = index - 1;
    while (i >= 0 && !meaningful(lines[i])) i--;
    return i;
  };
  for (let index = errorLine - 1; index < Math.min(lines.length, errorLine + 1); index++) {
    const line = lines[index];
    if (!meaningful(line)) continue;
    const above = previous(index);
    if (above < 0) continue;
    const own = indentOf(line!);
    const prior = lines[above]!;
    const priorIndent = indentOf(prior);
    const pos = { line: index + 1, col: own + 1 };
    // `key: value` followed by a deeper line: the deeper line cannot belong to a key that has a value.
    const inline = /^\s*(?:- +)?([^\s:#][^:#]*?):[ \t]+[^\s#]/.exec(prior);
    if (own > priorIndent && inline && !prior.trimStart().startsWith('- ') && !/[[{]\s*$/.test(prior)) {
      return {
        message: `line ${index + 1} is indented more than line ${above + 1}, but "${inline[1]}" on line ${above + 1} already has a value; indent line ${index + 1} like "${inline[1]}", or move the value after "${inline[1]}:" to its own lines`,
        pos,
      };
    }
    // A line between two levels: deeper than its parent, shallower than the siblings above it.
    const siblings = nearestIndents(lines, above, own);
    if (own !== priorIndent && siblings !== undefined && !siblings.includes(own)) {
      const expected = siblings.filter((n) => n <= priorIndent).map(String);
      return {
        message: `line ${index + 1} is indented ${own} space${own === 1 ? '' : 's'}, which matches no line above it (they use ${expected.join(' or ')}); the keys of one mapping and the items of one list must start in the same column`,
        pos,
      };
    }
  }
  return undefined;
}

/** The indentations of the lines from `from` upwards, up to the first line indented less than `own` (its parent), included. */
function nearestIndents(lines: string[], from: number, own: number): number[] | undefined {
  const seen = new Set<number>();
  for (let i = from; i >= 0; i--) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const indent = /^ */.exec(line)![0].length;
    seen.add(indent);
    // `  - name: a` opens a mapping whose keys start after the dash, in column 5.
    const dash = /^ *(- +)(?=[^\s#])/.exec(line);
    if (dash) seen.add(indent + dash[1]!.length);
    if (indent < own) return [...seen].sort((a, b) => b - a);
  }
  return seen.size === 0 ? undefined : [...seen].sort((a, b) => b - a);
}

// runCli prints the hint as "  <hint>"; indent the following lines the same way so the caret lines up.
function indentHint(excerpt: string): string | undefined {
  return excerpt === '' ? undefined : excerpt.split('\n').join('\n  ');
}

function duplicateKeyMessage(text: string, offset: number): string {
  const key = /^(?:"([^"\n]*)"|'([^'\n]*)'|([^:\n]*?))\s*:/.exec(text.slice(offset));
  const name = key ? (key[1] ?? key[2] ?? key[3] ?? '') : '';
  return name === '' ? 'a mapping has the same key twice' : `key "${name}" appears twice in the same mapping`;
}

interface AliasScan {
  any: boolean;
  dangling?: { name: string; offset: number };
}

/** Whether the document has an alias, and the first one whose anchor is missing. */
function readAliases(doc: Document): AliasScan {
  const { isAlias, visit } = yamlLibrary();
  const found: AliasScan = { any: false };
  visit(doc, {
    Alias(_key, node) {
      found.any = true;
      if (isAlias(node) && node.resolve(doc) === undefined) {
        found.dangling = { name: node.source, offset: node.range?.[0] ?? 0 };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
