/**
 * Following local `$ref`s (`#/...`) of an AsyncAPI document, one node at a time where the reader
 * needs it, instead of inlining the whole document: nothing is copied, a schema that refers to
 * itself is harmless, and a chain of references is bounded.
 */

import { parsePointer, resolvePointer } from '../expressions/json-pointer.js';
import { PointerSyntaxError } from '../expressions/errors.js';
import { AsyncApiError } from './async-errors.js';

/** At most this many `$ref` hops from one node: a longer chain is as good as a loop. */
const MAX_HOPS = 32;

/** A node of the document and the JSON pointer it was found at (after following references). */
export interface Located {
  value: unknown;
  pointer: string;
}

/**
 * The node `value` (found at `pointer`) stands for: itself, or the target of its `$ref` chain.
 * Throws AsyncApiError for a reference that is not local, does not resolve, or loops.
 */
export function followRef(root: unknown, value: unknown, pointer: string): Located {
  let current: Located = { value, pointer };
  const seen = new Set<string>([pointer]);
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const ref = refOf(current.value);
    if (ref === undefined) return current;
    const target = refPointer(ref, current.pointer);
    if (seen.has(target)) throw new AsyncApiError(`$ref "${ref}" loops back to ${target || '/'}`, current.pointer);
    seen.add(target);
    const resolved = resolvePointer(root, parseRefPointer(target, ref, current.pointer));
    if (resolved === undefined) throw new AsyncApiError(`$ref "${ref}" does not resolve`, current.pointer);
    current = { value: resolved, pointer: target };
  }
  throw new AsyncApiError(`more than ${MAX_HOPS} $ref hops`, pointer);
}

/** The `$ref` string of an object that has one. */
function refOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const ref = (value as Record<string, unknown>).$ref;
  return typeof ref === 'string' ? ref : undefined;
}

/** The JSON pointer of a local reference; throws for one into another document. */
function refPointer(ref: string, at: string): string {
  if (!ref.startsWith('#')) throw new AsyncApiError(`$ref "${ref}" is not local (only "#/..." references are read)`, at);
  // A URI fragment: percent-encoded characters stand for themselves (RFC 6901 §6).
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    throw new AsyncApiError(`$ref "${ref}" is not a valid URI fragment`, at);
  }
}

function parseRefPointer(target: string, ref: string, at: string): string[] {
  try {
    return parsePointer(target);
  } catch (error) {
    if (error instanceof PointerSyntaxError) throw new AsyncApiError(`$ref "${ref}" is not a JSON pointer`, at);
    throw error;
  }
}
