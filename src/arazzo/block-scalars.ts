/**
 * The scalars of the block reader (parse-block.ts), each on one line: keys, plain and quoted
 * values, flow sequences of plain scalars, folded block scalars. Each declines (throws
 * BlockDecline) what it cannot read exactly as the `yaml` library does.
 */
import { PLAIN_STRING, resolvePlain } from './plain-scalar.js';

/** Thrown when the text leaves the block subset; parse-block.ts turns it into a decline. */
export class BlockDecline extends Error {
  constructor() {
    super('outside the block subset');
  }
}

/** Leaves the block subset: throws BlockDecline. */
export function decline(): never {
  throw new BlockDecline();
}

// A plain scalar may not start with an indicator (`-` is allowed when a non-space follows it).
const INDICATOR = /[-?:,[\]{}#&*!|>'"%@`]/;
// What a flow sequence's item may not contain: nested collections, quotes, pairs and comments.
const FLOW_ITEM_REFUSED = /[[\]{}'":#]/;
// A plain key that is a number, which `yaml` turns into the same string: decimal, no sign or leading zero.
const NUMBER_KEY = /^(?:0|[1-9][0-9]{0,14})$/;
// `yaml` refuses an implicit key longer than this.
const MAX_KEY_LENGTH = 1024;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
};

/** A key's text: a quoted key unquoted, a plain key checked (no comment, no trailing space, a string or a plain number). */
export function keyText(raw: string): string {
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

export function isSpaceOrEnd(text: string, at: number): boolean {
  return at >= text.length || text.charCodeAt(at) === 0x20;
}

/** Whether from `from` to the end of `text` there are only spaces and perhaps a comment (after a space). */
export function restIsEmpty(text: string, from: number): boolean {
  let start = from;
  while (start < text.length && text.charCodeAt(start) === 0x20) start++;
  return start >= text.length || (text.charCodeAt(start) === 0x23 && (start > from || from === 0));
}

/** A one-line plain scalar: `text` up to a comment. */
export function plain(text: string): unknown {
  if (!startsPlain(text)) decline();
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
export function flow(text: string): unknown {
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
    if (item === '' || !startsPlain(item)) decline();
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
export function quotedScalar(text: string): [string, number] {
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
  return [body.includes('\\') ? unescapeDouble(body) : body, close + 1];
}

function backslashesBefore(text: string, at: number): number {
  let count = 0;
  while (at - count - 1 >= 0 && text.charCodeAt(at - count - 1) === 0x5c) count++;
  return count;
}

/** A double-quoted scalar's body with its escapes resolved, in pieces joined once. */
function unescapeDouble(body: string): string {
  const pieces: string[] = [];
  let from = 0;
  for (let at = body.indexOf('\\'); at !== -1; at = body.indexOf('\\', from)) {
    pieces.push(body.slice(from, at));
    const code = body[at + 1];
    const length = code === 'x' ? 2 : code === 'u' ? 4 : code === 'U' ? 8 : 0;
    if (length > 0) {
      const digits = body.slice(at + 2, at + 2 + length);
      if (digits.length !== length || !HEX.test(digits)) decline();
      const point = parseInt(digits, 16);
      if (point > 0x10ffff) decline();
      pieces.push(String.fromCodePoint(point));
      from = at + 2 + length;
    } else {
      // Any other escape `yaml` does not know is an error there.
      if (code === undefined || !Object.hasOwn(SIMPLE_ESCAPES, code)) decline();
      pieces.push(SIMPLE_ESCAPES[code]!);
      from = at + 2;
    }
  }
  pieces.push(body.slice(from));
  return pieces.join('');
}

const HEX = /^[0-9a-fA-F]+$/;

const ONLY_SPACES = /^ *$/;

/** Whether a plain scalar may start `text`: not an indicator, except `-` before a non-space. */
function startsPlain(text: string): boolean {
  if (!INDICATOR.test(text[0]!)) return true;
  const next = text.charCodeAt(1);
  return text.charCodeAt(0) === 0x2d && !Number.isNaN(next) && next !== 0x20;
}

function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return text.slice(start, end);
}

/** A folded scalar's first `count` lines: a single line break is a space, n blank lines are n line breaks. */
export function fold(lines: readonly string[], count: number): string {
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
