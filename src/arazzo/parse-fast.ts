/**
 * The fast way to read a document: JSON.parse, the block reader or js-yaml, several times faster than the `yaml`
 * library's full syntax tree. It answers only when it is sure to build the value `yaml` would build;
 * otherwise (any error, aliases, tags, directives, odd keys) it returns undefined and the caller
 * takes the `yaml` path, which gives today's messages, positions and limits.
 */
import { load, type State } from 'js-yaml';
import { CORE_SCHEMA } from './core-schema.js';
import { parseBlock } from './parse-block.js';
import { isObject, type RawObject } from './read-fields.js';

// Deeper documents go to the `yaml` path, which reports its own limit; js-yaml stops at 100 too.
const MAX_DEPTH = 100;
// `yaml` rejects an implicit key whose `:` is more than 1024 characters after its start (js-yaml
// does not), which needs a line at least that long.
const MAX_KEY_LINE = 1024;

// The text tests below may match text inside strings too; a false match only costs speed.
// `%YAML 1.1` changes the schema in `yaml` (yes/no become booleans); js-yaml would ignore it.
const DIRECTIVE = /^%/m;
// An explicit key (`? key`) may be a collection, which the two libraries turn into different strings.
const EXPLICIT_KEY = /(?:^|[\s[{,])\?(?:[\s,[\]{}]|$)/m;
// Where js-yaml is more lenient than `yaml`: text after `---` or `...` on its line (`---x` is a
// document marker to js-yaml, a scalar to `yaml`; `--- a: 1` an error in `yaml`), a tab in the
// indentation, and an empty sequence entry (`-` alone, after which js-yaml accepts a less indented `-`).
const MARKER_WITH_TEXT = /^(?:---|\.\.\.)(?!(?:[ \t]+(?:#.*)?)?\r?$)/m;
const TAB_INDENT = /^ *\t/m;
const EMPTY_ENTRY = /(?:^|[ \t])-[ \t]*(?:#.*)?\r?$/m;
// Block scalars with an indentation indicator (`|2`) or keep chomping (`|+`): the two libraries
// treat trailing lines of spaces differently.
const BLOCK_HEADER = /[|>](?:[1-9]|[-+][1-9]|\+)/;
const GATES = [DIRECTIVE, EXPLICIT_KEY, MARKER_WITH_TEXT, TAB_INDENT, EMPTY_ENTRY, BLOCK_HEADER];
// A line that may end with a block scalar header (`key: |`, `- >- # note`).
const BLOCK_SCALAR_START = /[|>][-+]?[ \t]*(?:#.*)?\r?$/gm;
// A CR not followed by LF is a line break to JSON.parse and js-yaml, but content to `yaml`.
const LONE_CR = /\r(?!\n)/;

/** The document's value when the fast parsers can be trusted with this text, else undefined. Never throws. */
export function parseFast(text: string): RawObject | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (LONE_CR.test(body)) return undefined;
  if (/^\s*\{/.test(body)) {
    const json = parseJson(body);
    if (json !== undefined) return json;
  }
  return parseYaml(body);
}

function parseJson(text: string): RawObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // JSON.parse keeps the last of duplicate keys where `yaml` reports an error: count them.
  if (!isObject(value) || countKeys(value) !== countJsonKeys(text)) return undefined;
  return value;
}

function parseYaml(text: string): RawObject | undefined {
  // The line reader first: it answers for most documents, several times faster than js-yaml, and
  // declines on its own everything the gates below keep from js-yaml (parse-block.test.ts checks
  // it against `yaml` without them).
  const block = parseBlock(text);
  if (block !== undefined) return block;
  if (GATES.some((gate) => gate.test(text)) || longestLine(text) > MAX_KEY_LINE || overIndentedBlankLead(text)) return undefined;
  const watcher = nodeWatcher();
  try {
    const value = load(text, { schema: CORE_SCHEMA, listener: watcher.listener });
    return isObject(value) && !watcher.unsafe() ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Watches js-yaml's nodes for what the two libraries read differently; any of these sends the
 * document to the `yaml` path:
 * - a quoted scalar or flow collection that spans lines: `yaml` requires the continuation lines
 *   to be indented past the enclosing block, js-yaml does not check it (both check plain and
 *   block scalars alike: those stay on the fast path);
 * - a comment glued to a quoted scalar or flow collection (`"a"#c`, `{}#c`): an error in `yaml`;
 * - a key that is a collection or null: `yaml` names it `[ a ]` or "", js-yaml `a` or "null";
 * - an anchor (`&a`): js-yaml throws on an alias without one, so aliases always take the `yaml`
 *   path, which enforces maxAliasCount;
 * - the non-specific tag `!` (the only tag the schema lets through): `! ` alone is "" in `yaml`, null in js-yaml.
 */
function nodeWatcher(): { listener: (event: 'open' | 'close', state: State) => void; unsafe: () => boolean } {
  const opened: number[] = [];
  let unsafe = false;
  const listener = (event: 'open' | 'close', state: State & { tag?: string | null; anchor?: string | null }): void => {
    if (event === 'open') {
      opened.push(state.position);
      return;
    }
    const from = opened.pop() ?? 0;
    if (unsafe) return;
    const input = state.input;
    const start = contentStart(input, from);
    const first = input[start];
    const scalar = state.kind === 'scalar';
    const flowCollection = !scalar && (first === '[' || first === '{');
    const quoted = scalar && (first === '"' || first === "'");
    const end = state.position;
    unsafe =
      state.tag === '!' ||
      (state.anchor !== null && state.anchor !== undefined) ||
      ((quoted || flowCollection) && input.lastIndexOf('\n', end - 1) >= start) ||
      ((quoted || flowCollection) && input[end] === '#') ||
      ((flowCollection || state.result === null) && isKey(input, start, end, opened[opened.length - 1]));
  };
  return { listener, unsafe: () => unsafe };
}

// Whether the node at input[start, end) is a key: followed by `:`, or an entry of a flow mapping
// without one (`{a}`). Multi-line flow mappings never get here (see nodeWatcher), so looking back
// over spaces on the node's line is enough.
function isKey(input: string, start: number, end: number, parentFrom: number | undefined): boolean {
  let after = end;
  while (input[after] === ' ' || input[after] === '\t') after++;
  if (input[after] === ':') return true;
  if (parentFrom === undefined || input[contentStart(input, parentFrom)] !== '{') return false;
  let before = start - 1;
  while (input[before] === ' ' || input[before] === '\t') before--;
  return input[before] === '{' || input[before] === ',';
}

// The first character of a node from where js-yaml started reading it: past spaces, line breaks and comments.
function contentStart(input: string, from: number): number {
  let at = from;
  for (;;) {
    const c = input.charCodeAt(at);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) at++;
    else if (c === 0x23) {
      const end = input.indexOf('\n', at);
      if (end === -1) return input.length;
      at = end + 1;
    } else return at;
  }
}

// Own keys of every mapping in the value; -1 when it nests deeper than MAX_DEPTH.
function countKeys(root: unknown): number {
  let count = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [value, depth] = entry;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH) return -1;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value)) count += children.length;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return count;
}

// Keys written in valid JSON text: strings followed by `:` on the same line. A key whose `:` is on
// a later line is not counted, so such a document also takes the `yaml` path (YAML wants it on one line).
function countJsonKeys(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at)) {
    at++;
    while (text.charCodeAt(at) !== 0x22) at += text.charCodeAt(at) === 0x5c ? 2 : 1;
    at++;
    let next = at;
    while (text.charCodeAt(next) === 0x20 || text.charCodeAt(next) === 0x09) next++;
    if (text.charCodeAt(next) === 0x3a) count++;
  }
  return count;
}

// `yaml` rejects a block scalar whose leading blank lines hold more spaces than its first line of
// text is indented; js-yaml reads it (as an empty string).
function overIndentedBlankLead(text: string): boolean {
  for (const header of text.matchAll(BLOCK_SCALAR_START)) {
    let widest = 0;
    for (let at = text.indexOf('\n', header.index) + 1; at > 0; at = text.indexOf('\n', at) + 1) {
      let indent = 0;
      while (text.charCodeAt(at + indent) === 0x20) indent++;
      const next = text.charCodeAt(at + indent);
      if (!(Number.isNaN(next) || next === 0x0a || next === 0x0d)) {
        if (widest > indent) return true;
        break;
      }
      widest = Math.max(widest, indent);
    }
  }
  return false;
}

function longestLine(text: string): number {
  let longest = 0;
  let start = 0;
  for (let end = text.indexOf('\n'); ; end = text.indexOf('\n', start)) {
    const stop = end === -1 ? text.length : end;
    longest = Math.max(longest, stop - start);
    if (end === -1) return longest;
    start = end + 1;
  }
}
