import type { LineCounter, Node as YamlNode } from 'yaml';
import { formatPointer, parsePointer } from '../expressions/json-pointer.js';
import type { Position } from './model.js';
import { yamlLibrary } from './yaml-library.js';

/** JSON pointer -> line:col of every node in a parsed YAML document. */
export type SourceMap = Map<string, Position>;

/**
 * Walks the YAML syntax tree and records where each JSON pointer sits. A mapping entry points at
 * its value when the value is a scalar on the page (`stepId: foo` -> `foo`), else at its key
 * (`steps:`), so a finding about a block lands on the line that names it.
 */
export function buildSourceMap(root: YamlNode | null | undefined, lines: LineCounter): SourceMap {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  const map: SourceMap = new Map();
  const at = (offset: number): Position => lines.linePos(offset);
  // Pointers are extended one escaped token at a time (not re-formatted from a token list at every
  // node): a 1000-step document has ~17 000 of them, and rebuilding each cost O(depth) work.
  const visit = (node: unknown, pointer: string, fallback?: number): void => {
    const start = startOf(node) ?? fallback;
    if (start !== undefined && !map.has(pointer)) map.set(pointer, at(start));
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyStart = startOf(pair.key);
        const valueStart = isScalar(pair.value) && hasText(pair.value) ? startOf(pair.value) : undefined;
        const where = valueStart ?? keyStart;
        const child = pointer + formatPointer([keyText(pair.key)]);
        if (where !== undefined && !map.has(child)) map.set(child, at(where));
        visit(pair.value, child, keyStart);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, `${pointer}/${index}`, start));
    }
  };
  visit(root, '');
  if (!map.has('')) map.set('', { line: 1, col: 1 });
  return map;
}

/**
 * A `locate` for the document `text` that parses it with positions on its first call only: the
 * syntax tree is needed just when a finding or warning is printed, and a clean document never is.
 */
export function lazyLocator(text: string): (pointer: string) => Position | undefined {
  let map: SourceMap | undefined;
  return (pointer) => {
    if (map === undefined) {
      const { LineCounter, parseDocument } = yamlLibrary();
      const lines = new LineCounter();
      // The text was checked when it was loaded (parse-with-yaml.ts); the library's own duplicate-key check is quadratic.
      map = buildSourceMap(parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false }).contents, lines);
    }
    return locateIn(map, pointer);
  };
}

/** Position of `pointer`, or of its nearest ancestor that has one. */
export function locateIn(map: SourceMap, pointer: string): Position | undefined {
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return map.get('');
  }
  for (let n = tokens.length; n >= 0; n--) {
    const found = map.get(formatPointer(tokens.slice(0, n)));
    if (found) return found;
  }
  return undefined;
}

function startOf(node: unknown): number | undefined {
  const { isAlias, isCollection, isScalar } = yamlLibrary();
  if (isScalar(node) || isCollection(node) || isAlias(node)) return node.range?.[0];
  return undefined;
}

// An empty value (`steps:`) is a null scalar with an empty range: point at its key instead.
function hasText(node: { range?: [number, number, number] | null }): boolean {
  return node.range !== undefined && node.range !== null && node.range[1] > node.range[0];
}

function keyText(key: unknown): string {
  const { isCollection, isScalar } = yamlLibrary();
  if (isScalar(key)) return String(key.value);
  if (isCollection(key)) return JSON.stringify(key.toJSON());
  return String(key);
}
