/**
 * The fastest way to read a YAML document: a line-based reader for the block-style subset that
 * Arazzo and OpenAPI documents are written in (block mappings and sequences, one-line plain and
 * quoted scalars, literal and folded block scalars, `[]`, `{}` and one-line flow sequences of plain
 * scalars). It works with the text's own search functions (indexOf, slice, a few regexes) instead
 * of reading character by character, which is what makes it several times faster than js-yaml in
 * a fresh process, where neither is optimised yet.
 *
 * It answers only for text it reads exactly as the `yaml` library does, and returns undefined for
 * anything else (tabs, CR, control characters, anchors, aliases, tags, multi-line plain or quoted
 * scalars, flow mappings, explicit keys, duplicate keys, odd indentation, ...): the caller then
 * takes the slower readers, which give the same value or `yaml`'s own error with its position.
 * test/unit/arazzo/parse-block.test.ts checks it against `yaml` over every YAML file in the
 * repository and thousands of generated and mutated documents.
 */
import { BlockDecline, decline, flow, fold, isSpaceOrEnd, keyText, plain, quotedScalar, restIsEmpty } from './block-scalars.js';
import { isObject, type RawObject } from './read-fields.js';

// Characters the reader never accepts: tab and CR (indentation and line-break rules differ between
// readers), other C0/C1 controls, DEL, line and paragraph separators, surrogates and non-characters.
const REFUSED_CHARACTER = /[\0-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;
// Deeper documents go to the slower readers, which apply the document's depth limit.
const MAX_DEPTH = 64;

/** The document's value when it is a mapping in the block subset, else undefined. Never throws. */
export function parseBlock(text: string): RawObject | undefined {
  try {
    return readBlock(text);
  } catch {
    // A bug in the reader must not stop a run: the slower readers decide (tests call readBlock).
    return undefined;
  }
}

/**
 * parseBlock's reader: the value, or undefined when the text leaves the subset. Throws only on a
 * bug of its own, which parseBlock turns into a decline and the tests into a failure.
 */
export function readBlock(text: string): RawObject | undefined {
  if (REFUSED_CHARACTER.test(text)) return undefined;
  try {
    const value = new BlockReader(text).document();
    return isObject(value) ? value : undefined;
  } catch (error) {
    // Outside the subset, or a stack overflow on a pathological text: the slower readers decide.
    if (error instanceof BlockDecline || error instanceof RangeError) return undefined;
    throw error;
  }
}

// One line, read by one sticky match: its indentation, a `- ` that starts a sequence entry, a key
// (plain, or quoted without escapes) with its `:` and the spaces after it, and the rest of the line.
// A plain key is the shortest text up to a `:` followed by a space or the line's end; keyText checks it.
const LINE_PATTERN = /( *)(?:-( +|(?=\n|$)))?(?:([^\s#'"?:,[\]{}&*!|>%@`-][^\n]*?|'(?:[^'\n]|'')*'|"[^"\\\n]*"):(?: +|(?=\n|$)))?([^\n]*)/y;

/**
 * A cursor over the text's lines. For the current line: `at` is where it starts in the text and
 * `end` where it ends; `indent` is its indentation, `entry` whether it starts with `- `,
 * `keyColumn` the column of its key (after the `- `) and `key` that key's text, undefined when it
 * has none; `rest` is what follows (after the key's `: `, or the `- `, or the indentation).
 * Every search stays within one line, so the reader is linear in the text's length whatever the
 * text holds.
 */
class BlockReader {
  private at = 0;
  private end = 0;
  private indent = 0;
  private entry = false;
  private keyColumn = 0;
  private key: string | undefined;
  private rest = '';
  private depth = 0;
  // Its own copy of the pattern: a sticky regex keeps its position.
  private readonly pattern = new RegExp(LINE_PATTERN);

  constructor(private readonly text: string) {}

  document(): unknown {
    this.load(0);
    this.skipToContent();
    if (this.eof()) decline();
    if (this.indent === 0 && !this.entry && this.key === undefined && this.rest.startsWith('---')) {
      if (!restIsEmpty(this.rest, 3)) decline();
      this.nextLine();
      this.skipToContent();
    }
    if (this.eof() || this.indent !== 0 || this.entry || this.key === undefined) decline();
    const value = this.mapping(0);
    if (!this.eof()) decline();
    return value;
  }

  // ---- lines

  private eof(): boolean {
    return this.at >= this.text.length;
  }

  /** Makes the line starting at `at` current. */
  private load(at: number): void {
    this.at = at;
    if (at >= this.text.length) {
      this.end = at;
      this.indent = 0;
      this.entry = false;
      this.key = undefined;
      this.rest = '';
      return;
    }
    this.pattern.lastIndex = at;
    const match = this.pattern.exec(this.text)!;
    const rest = match[4]!;
    this.end = at + match[0].length;
    this.indent = match[1]!.length;
    this.entry = match[2] !== undefined;
    this.keyColumn = this.entry ? this.indent + 1 + match[2]!.length : this.indent;
    this.key = match[3];
    this.rest = rest;
  }

  private nextLine(): void {
    this.load(this.end + 1);
  }

  /** Moves to the next line with content: past blank lines and comment lines. */
  private skipToContent(): void {
    while (!this.eof() && !this.entry && this.key === undefined && (this.rest === '' || this.rest.charCodeAt(0) === 0x23)) this.nextLine();
  }

  /** After a one-line value: moves to the next content line, which may not be more indented than `parent` (no continuation lines). */
  private endOfValue(parent: number): void {
    this.nextLine();
    this.skipToContent();
    if (!this.eof() && this.indent > parent) decline();
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) decline();
  }

  // ---- collections

  /** A block mapping whose keys are at column `indent`; the current line holds the first key. */
  private mapping(indent: number): RawObject {
    this.enter();
    const map: RawObject = {};
    for (;;) {
      // No key, or one that a document marker (`...`) starts: the slower readers.
      if (this.key === undefined || (this.indent === 0 && this.key.startsWith('...'))) decline();
      const key = keyText(this.key);
      if (key === '__proto__' || Object.hasOwn(map, key)) decline();
      map[key] = this.valueAfterKey(indent);
      if (this.eof() || this.indent < indent) break;
      if (this.indent > indent || this.entry) decline();
    }
    this.depth--;
    return map;
  }

  /** A block sequence whose `-` are at column `indent`; the current line holds the first. */
  private sequence(indent: number): unknown[] {
    this.enter();
    const list: unknown[] = [];
    for (;;) {
      if (this.key !== undefined) {
        list.push(this.mapping(this.keyColumn));
      } else {
        // An empty entry, a value on the next line or a nested compact sequence: the slower readers.
        const rest = this.rest;
        if (rest === '' || rest.charCodeAt(0) === 0x23 || (rest.charCodeAt(0) === 0x2d && isSpaceOrEnd(rest, 1))) decline();
        list.push(this.inlineValue(indent));
      }
      if (this.eof() || this.indent < indent) break;
      if (this.indent > indent) decline();
      // A key at the column of the `-`: an indentless sequence ends, the mapping around it goes on.
      if (!this.entry) break;
    }
    this.depth--;
    return list;
  }

  // ---- values

  /** The value after the current line's key, at column `indent`. */
  private valueAfterKey(indent: number): unknown {
    if (!restIsEmpty(this.rest, 0)) return this.inlineValue(indent);
    this.nextLine();
    this.skipToContent();
    if (this.eof() || this.indent < indent) return null;
    if (this.indent === indent) return this.entry ? this.sequence(indent) : null;
    if (this.entry) return this.sequence(this.indent);
    // A nested mapping; a scalar alone on its line (or anything else) goes to the slower readers.
    if (this.key === undefined) decline();
    return this.mapping(this.indent);
  }

  /** The value in the current line's rest, in a node whose parent is at column `parent`. */
  private inlineValue(parent: number): unknown {
    const rest = this.rest;
    const first = rest.charCodeAt(0);
    if (first === 0x7c || first === 0x3e) return this.blockScalar(parent);
    let value: unknown;
    if (first === 0x22 || first === 0x27) {
      const [quoted, after] = quotedScalar(rest);
      if (!restIsEmpty(rest, after)) decline();
      value = quoted;
    } else if (first === 0x5b || first === 0x7b) {
      value = flow(rest);
    } else {
      value = plain(rest);
    }
    this.endOfValue(parent);
    return value;
  }

  /**
   * A literal (`|`, `|-`) or folded (`>`, `>-`) block scalar whose header is the current line's
   * rest, in a node whose parent is at column `parent`. Keep chomping, indentation indicators,
   * leading blank lines and (folded) more-indented or space-ended lines are left to the slower readers.
   */
  private blockScalar(parent: number): string {
    const header = this.rest;
    const folded = header.charCodeAt(0) === 0x3e;
    const strip = header.charCodeAt(1) === 0x2d;
    const headerEnd = strip ? 2 : 1;
    if (!isSpaceOrEnd(header, headerEnd) || !restIsEmpty(header, headerEnd)) decline();
    const text = this.text;
    const lines: string[] = [];
    let blockIndent = -1;
    this.nextLine();
    while (!this.eof()) {
      const blank = this.end - this.at === this.indent;
      if (blank) {
        // A blank line: part of the scalar, or removed by chomping when no text follows.
        if (blockIndent === -1 || this.indent > blockIndent) decline();
        lines.push('');
        this.nextLine();
        continue;
      }
      if (blockIndent === -1) {
        if (this.indent <= parent) break;
        blockIndent = this.indent;
      } else if (this.indent < blockIndent) {
        if (this.indent > parent) decline();
        break;
      }
      // The last line without a line break after it: chomping would differ.
      if (this.end >= text.length) decline();
      if (folded && (this.indent > blockIndent || text.charCodeAt(this.end - 1) === 0x20)) decline();
      lines.push(text.slice(this.at + blockIndent, this.end));
      this.nextLine();
    }
    this.skipToContent();
    let count = lines.length;
    while (count > 0 && lines[count - 1] === '') count--;
    if (count === 0) return '';
    const body = folded ? fold(lines, count) : lines.slice(0, count).join('\n');
    return strip ? body : `${body}\n`;
  }
}
