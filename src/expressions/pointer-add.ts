/** RFC 6902's `add` operation at an RFC 6901 pointer: what a JSON `requestBody.replacements` entry does (v2). */
import { formatPointer, parsePointer } from './json-pointer.js';

/** Thrown by addAtPointer when the value cannot be added there; the message says why, without the pointer. */
export class PointerAddError extends Error {
  override name = 'PointerAddError';
}

// RFC 6901 array indices: no sign, no leading zeros.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * `document` with `value` added at `pointer` as RFC 6902 `add` does: an object member is created
 * or replaced; in an array an index inserts before it (the length appends) and `-` appends; the
 * pointer "" replaces the whole document. `document` is not changed: the objects and arrays on the
 * pointer's way are copied, the rest is shared. Throws PointerAddError when the parent does not
 * exist or is not an object or array, or the index is out of range; PointerSyntaxError for a
 * malformed pointer.
 */
export function addAtPointer(document: unknown, pointer: string, value: unknown): unknown {
  return addAt(document, parsePointer(pointer), 0, value);
}

function addAt(container: unknown, tokens: readonly string[], i: number, value: unknown): unknown {
  if (i === tokens.length) return value;
  const token = tokens[i]!;
  const last = i === tokens.length - 1;
  const where = i === 0 ? 'the payload' : `its parent ${formatPointer(tokens.slice(0, i))}`;
  if (Array.isArray(container)) {
    const copy = [...container];
    if (last && token === '-') copy.push(value);
    else if (last && ARRAY_INDEX.test(token) && Number(token) <= copy.length) copy.splice(Number(token), 0, value);
    else if (!last && ARRAY_INDEX.test(token) && Number(token) < copy.length) copy[Number(token)] = addAt(copy[Number(token)], tokens, i + 1, value);
    else if (last) throw new PointerAddError(`${where} is an array of ${copy.length} items, and "${token}" is not an index from 0 to ${copy.length} (or - to append)`);
    else throw new PointerAddError(`its parent ${formatPointer(tokens.slice(0, i + 1))} does not exist`);
    return copy;
  }
  if (isObject(container)) {
    if (!last && !Object.hasOwn(container, token)) throw new PointerAddError(`its parent ${formatPointer(tokens.slice(0, i + 1))} does not exist`);
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(container)) define(copy, key, container[key]);
    define(copy, token, last ? value : addAt(container[token], tokens, i + 1, value));
    return copy;
  }
  throw new PointerAddError(`${where} is ${describe(container)}, not an object or array`);
}

// A member named "__proto__" must stay data.
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'absent';
  if (value instanceof Uint8Array) return 'binary data';
  return `a ${typeof value}`;
}
