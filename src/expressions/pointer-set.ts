/** Setting a value at an RFC 6901 pointer: what a JSON `requestBody.replacements` entry does (v2). */
import { formatPointer, parsePointer } from './json-pointer.js';

/** Thrown by setAtPointer when the value cannot be set there; the message says why, without the pointer. */
export class PointerSetError extends Error {
  override name = 'PointerSetError';
}

// RFC 6901 array indices: no sign, no leading zeros.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * `document` with `value` set at `pointer`, as Arazzo says a replacement does ("the value set
 * within the target location"): an existing target is replaced (an object member, or an array
 * item at its index); a missing object member whose parent exists is added; in an array `-` (or
 * the index one past the end) appends; the pointer "" replaces the whole document. Unlike RFC
 * 6902's `add`, an index never inserts before an item. `document` is not changed: the objects and arrays on the
 * pointer's way are copied, the rest is shared. Throws PointerSetError when the parent does not
 * exist or is not an object or array, or the index is out of range; PointerSyntaxError for a
 * malformed pointer.
 */
export function setAtPointer(document: unknown, pointer: string, value: unknown): unknown {
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
    else if (last && ARRAY_INDEX.test(token) && Number(token) < copy.length) copy[Number(token)] = value;
    else if (last && ARRAY_INDEX.test(token) && Number(token) === copy.length) copy.push(value);
    else if (!last && ARRAY_INDEX.test(token) && Number(token) < copy.length) copy[Number(token)] = addAt(copy[Number(token)], tokens, i + 1, value);
    else if (last) throw new PointerSetError(`${where} is an array of ${copy.length} items, and "${token}" is not an index from 0 to ${copy.length} (or - to append)`);
    else throw new PointerSetError(`its parent ${formatPointer(tokens.slice(0, i + 1))} does not exist`);
    return copy;
  }
  if (isObject(container)) {
    if (!last && !Object.hasOwn(container, token)) throw new PointerSetError(`its parent ${formatPointer(tokens.slice(0, i + 1))} does not exist`);
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(container)) define(copy, key, container[key]);
    define(copy, token, last ? value : addAt(container[token], tokens, i + 1, value));
    return copy;
  }
  throw new PointerSetError(`${where} is ${describe(container)}, not an object or array`);
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
