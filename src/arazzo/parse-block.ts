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
import { isObject, type RawObject } from './read-fields.js';
import { PLAIN_STRING, resolvePlain } from './plain-scalar.js';

// Characters the reader never accepts: tab and CR (indentation and line-break rules differ between
// readers), other C0/C1 controls, DEL, line and paragraph separators, surrogates and non-characters.
const REFUSED_CHARACTER = /[\0-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;
// A plain scalar may not start with an indicator (`-` is allowed when a non-space follows it).
const INDICATOR = /[-?:,[\]{}#&*!|>'"%@`]/;
// What a flow sequence's item may not contain: nested collections, quotes, pairs and comments.
const FLOW_ITEM_REFUSED = /[[\]{}'":#]/;
// A plain key that is a number, which `yaml` turns into the same string: decimal, no sign or leading zero.
const NUMBER_KEY = /^(?:0|[1-9][0-9]{0,14})$/;
// Deeper documents go to the slower readers, which apply the document's depth limit.
const MAX_DEPTH = 64;
// `yaml` refuses an implicit key longer than this.
const MAX_KEY_LENGTH = 1024;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
};

/** Thrown inside the reader when the text leaves the subset; never escapes parseBlock. */
const DECLINE = new Error('outside the block subset');
function decline(): never {
  throw DECLINE;
}

/** The document's value when it is a mapping in the block subset, else undefined. Never throws. */
export function parseBlock(text: string): RawObject | undefined {
  if (REFUSED_CHARACTER.test(text)) return undefined;
  try {
    const value = new BlockReader(text).document();
    return isObject(value) ? value : undefined;
  } catch {
    // DECLINE, or a stack overflow on a pathological line: the slower readers decide.
    return undefined;
  }
}

// One line, read by one sticky match: its indentation, a `- ` that starts a sequence entry, a key
// (plain, or quoted without escapes) with its `:` and the spaces after it, and the rest of the line.
// A plain key is the shortest text up to a `:` followed by a space or the line's end; key() checks it.
const LINE = /( *)(?:-( +|(?=\n|$)))?(?:([^\s#'"?:,[\]{}&*!|>%@`-][^\n]*?|'(?:[^'\n]|'')*'|"[^"\\\n]*"):(?: +|(?=\n|$)))?([^\n]*)/y;

/**
 * A cursor over the text's lines. For the current line: `at` is where it starts in the text and
 * `end` where it ends; `indent` is its indentation, `entry` whether it starts with `- `,
 * `keyColumn` the column of its key (after the `- `) and `key` that key's text, undefined when it
 * has none; `rest` is what follows (after the key's `: `, or the `- `, or the indentation), from
 * column `restColumn`. Every search stays within one line, so the reader is linear in the text's
 * length whatever the text holds.
 */
class BlockReader {
  private at = 0;
  private end = 0;
  private indent = 0;
  private entry = false;
  private keyColumn = 0;
  private key: string | undefined;
  private rest = '';
  private restColumn = 0;
  private depth = 0;

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
    LINE.lastIndex = at;
    const match = LINE.exec(this.text)!;
    const rest = match[4]!;
    this.end = at + match[0].length;
    this.indent = match[1]!.length;
    this.entry = match[2] !== undefined;
    this.keyColumn = this.entry ? this.indent + 1 + match[2]!.length : this.indent;
    this.key = match[3];
    this.rest = rest;
    this.restColumn = match[0].length - rest.length;
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

/** A key's text: a quoted key unquoted, a plain key checked (no comment, no trailing space, a string or a plain number). */
function keyText(raw: string): string {
  // `yaml` wants the `:` at most 1024 characters after the key's start, quotes included.
  if (raw.length > MAX_KEY_LENGTH) decline();
  const first = raw.charCodeAt(0);
  if (first === 0x27) return raw.slice(1, -1).replaceAll("''", "'");
  if (first === 0x22) return raw.slice(1, -1);
  if (raw.endsWith(' ') || raw.includes(' #')) decline();
  const value = resolvePlain(raw);
  if (value !== PLAIN_STRING && !(typeof value === 'number' && NUMBER_KEY.test(raw))) decline();
  return raw;
}

function isSpaceOrEnd(text: string, at: number): boolean {
  return at >= text.length || text.charCodeAt(at) === 0x20;
}

/** Whether from `from` to the end of `text` there are only spaces and perhaps a comment (after a space). */
function restIsEmpty(text: string, from: number): boolean {
  let start = from;
  while (start < text.length && text.charCodeAt(start) === 0x20) start++;
  return start >= text.length || (text.charCodeAt(start) === 0x23 && (start > from || from === 0));
}

/** A one-line plain scalar: `text` up to a comment. */
function plain(text: string): unknown {
  if (!startsPlain(text, 0)) decline();
  let stop = text.indexOf(' #');
  if (stop === -1) stop = text.length;
  while (stop > 0 && text.charCodeAt(stop - 1) === 0x20) stop--;
  const source = stop === text.length ? text : text.slice(0, stop);
  // `: ` inside, or `:` at the end, would make it a key: a nested mapping on one line, which `yaml` refuses.
  if (source.includes(': ') || source.endsWith(':')) decline();
  const value = resolvePlain(source);
  return value === PLAIN_STRING ? source : value;
}

/** `[]`, `{}` or a one-line flow sequence of plain scalars: `text` starts with its bracket. */
function flow(text: string): unknown {
  const open = text[0];
  const close = text.indexOf(open === '[' ? ']' : '}', 1);
  if (close === -1 || !restIsEmpty(text, close + 1)) decline();
  const inner = text.slice(1, close);
  if (ONLY_SPACES.test(inner)) return open === '[' ? [] : {};
  if (open === '{' || FLOW_ITEM_REFUSED.test(inner)) decline();
  const items = inner.split(',');
  const list: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = trimSpaces(items[i]!);
    if (item === '' || !startsPlain(item, 0)) decline();
    const value = resolvePlain(item);
    list.push(value === PLAIN_STRING ? item : value);
  }
  return list;
}

/**
 * A quoted scalar at the start of `text` that ends on the same line: its value, and where the text
 * after it starts. The value is cut out and unescaped in one piece (a value built escape by escape
 * is a chain of a million strings for a megabyte of escapes, which the garbage collector copies).
 */
function quotedScalar(text: string): [string, number] {
  if (text.charCodeAt(0) === 0x27) {
    // `''` is an escaped quote; the first `'` not followed by another ends the scalar.
    let close = text.indexOf("'", 1);
    while (close !== -1 && text.charCodeAt(close + 1) === 0x27) close = text.indexOf("'", close + 2);
    if (close === -1) decline();
    const body = text.slice(1, close);
    return [body.includes("''") ? body.replaceAll("''", "'") : body, close + 1];
  }
  // A `"` after an odd number of backslashes is escaped.
  let close = text.indexOf('"', 1);
  while (close !== -1 && backslashesBefore(text, close) % 2 === 1) close = text.indexOf('"', close + 1);
  if (close === -1) decline();
  const body = text.slice(1, close);
  return [body.includes('\\') ? body.replace(ESCAPE, unescapeOne) : body, close + 1];
}

function backslashesBefore(text: string, at: number): number {
  let count = 0;
  while (at - count - 1 >= 0 && text.charCodeAt(at - count - 1) === 0x5c) count++;
  return count;
}

// An escape of a double-quoted scalar: hex (\x, \u, \U and their digits) or one character; a
// backslash that starts none of `yaml`'s escapes matches with neither, and unescapeOne declines it.
const ESCAPE = /\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.)|$)/g;

function unescapeOne(_match: string, x?: string, u?: string, bigU?: string, char?: string): string {
  const hex = x ?? u ?? bigU;
  if (hex !== undefined) {
    const point = parseInt(hex, 16);
    if (point > 0x10ffff) decline();
    return String.fromCodePoint(point);
  }
  if (char === undefined || !Object.hasOwn(SIMPLE_ESCAPES, char)) decline();
  return SIMPLE_ESCAPES[char]!;
}

const ONLY_SPACES = /^ *$/;

/** Whether a plain scalar may start at column `at`: not an indicator, except `-` before a non-space. */
function startsPlain(text: string, at: number): boolean {
  if (!INDICATOR.test(text[at]!)) return true;
  const next = text.charCodeAt(at + 1);
  return text.charCodeAt(at) === 0x2d && !Number.isNaN(next) && next !== 0x20;
}


function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return text.slice(start, end);
}

/** A folded scalar's first `count` lines: a single line break is a space, n blank lines are n line breaks. */
function fold(lines: readonly string[], count: number): string {
  // Joined once at the end: a string built line by line would be a chain of pieces.
  const pieces = [lines[0]!];
  let blanks = 0;
  for (let i = 1; i < count; i++) {
    const line = lines[i]!;
    if (line === '') {
      blanks++;
      continue;
    }
    pieces.push(blanks === 0 ? ' ' : '\n'.repeat(blanks), line);
    blanks = 0;
  }
  return pieces.join('');
}
