/**
 * Following local `$ref`s (`#/...`) of an AsyncAPI document, one node at a time where the reader
 * needs it, instead of inlining the whole document: nothing is copied, a schema that refers to
 * itself is harmless, and a chain of references is bounded.
 */

import { escapePointerToken, parsePointer, resolvePointer } from '../expressions/json-pointer.js';
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
 * A reference may pass through other references on its way (`#/channels/a/messages/m` where
 * channel `a` is itself a `$ref`). Throws AsyncApiError for a reference that is not local, does
 * not resolve, or loops.
 */
export function followRef(root: unknown, value: unknown, pointer: string): Located {
  return follow(root, { value, pointer }, { hops: 0 }, new Set([pointer]));
}

function follow(root: unknown, start: Located, budget: { hops: number }, seen: Set<string>): Located {
  let current = start;
  for (;;) {
    const ref = refOf(current.value);
    if (ref === undefined) return current;
    if (++budget.hops > MAX_HOPS) throw new AsyncApiError(`more than ${MAX_HOPS} $ref hops`, start.pointer);
    const target = refPointer(ref, current.pointer);
    if (seen.has(target)) throw new AsyncApiError(`$ref "${ref}" loops back to ${target || '/'}`, current.pointer);
    seen.add(target);
    const resolved = walk(root, parseRefPointer(target, ref, current.pointer), budget, seen);
    if (resolved === undefined) throw new AsyncApiError(`$ref "${ref}" does not resolve`, current.pointer);
    current = { value: resolved, pointer: target };
  }
}

/** The value at `tokens`, following references met on the way; undefined when a step is absent. */
function walk(root: unknown, tokens: string[], budget: { hops: number }, seen: Set<string>): unknown {
  let current: Located = { value: root, pointer: '' };
  for (const token of tokens) {
    // A reference in the middle of the path leads on from its target (a set of its own: the
    // same node may be passed through on the way to different targets).
    current = follow(root, current, budget, new Set(seen));
    const next = resolvePointer(current.value, [token]);
    if (next === undefined) return undefined;
    current = { value: next, pointer: `${current.pointer}/${escapePointerToken(token)}` };
  }
  return current.value;
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
