/**
 * The nesting limit of a document. Loading, validation, the source map and template compilation
 * walk a document recursively; a limit far above any real document keeps them off the stack's edge.
 */
import { formatPointer } from '../expressions/json-pointer.js';

/** Deepest nesting of mappings and lists a document may have; the top-level mapping is level 1. */
export const MAX_DOCUMENT_DEPTH = 256;

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string;
}

/** The JSON pointer of the first collection nested deeper than `limit` levels, or undefined. Iterative, so any depth is safe. */
export function overDeepPointer(root: unknown, limit = MAX_DOCUMENT_DEPTH): string | undefined {
  const stack: Visit[] = [{ value: root, depth: 1, parent: undefined, key: '' }];
  // A collection that YAML aliases share is walked again only from deeper than before: from no
  // deeper, nothing below it can be over the limit that was not found the first time (a cycle
  // comes back deeper each time, so it is still found). 99 aliases of a large list were 99 walks.
  const deepest = new Map<object, number>();
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return pointerOf(visit);
    if ((deepest.get(value) ?? 0) >= depth) continue;
    deepest.set(value, depth);
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: visit, key });
    }
  }
  return undefined;
}

function pointerOf(visit: Visit): string {
  const tokens: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) tokens.push(at.key);
  return formatPointer(tokens.reverse());
}

/** A long pointer cut to its first segments, for a message: `/workflows/0/inputs/properties/a/…`. */
export function shortPointer(pointer: string, segments = 8): string {
  const parts = pointer.split('/');
  return parts.length - 1 <= segments ? pointer : `${parts.slice(0, segments + 1).join('/')}/…`;
}
