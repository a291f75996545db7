/**
 * The response schemas response checks need, kept apart from the description: each operation's
 * response schemas at their pointers, with every `#/…` target their `$ref`s reach, copied at
 * its own pointer. Schemas keep their `$ref`s (dereference.ts leaves them), so the copy is as
 * large as what responses use, and a validator resolves the refs inside it as in the description.
 */
import { escapePointerToken, parsePointer, resolvePointer } from '../expressions/json-pointer.js';
import type { Operation } from './types.js';

/** Members whose contents are data, never schemas: their `$ref`s are not followed. */
const DATA_MEMBERS = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** The pointer of a declared response's schema inside the description (and inside `responseSchemas`). */
export function responseSchemaPointer(operation: Operation, status: string, mediaType: string): string {
  return `${operation.pointer}/responses/${escapePointerToken(status)}/content/${escapePointerToken(mediaType)}/schema`;
}

/**
 * The sparse copy of `doc` holding the response schemas of `operations` and the `#/…` targets of
 * their refs; undefined when no response declares a schema. A ref that does not resolve, or that
 * points into another file, is left as it is: the check of that body says it cannot be compiled.
 */
export function collectResponseSchemas(doc: Record<string, unknown>, operations: Iterable<Operation>): Record<string, unknown> | undefined {
  const pending: string[] = [];
  for (const operation of operations) {
    for (const [status, types] of Object.entries(operation.responses ?? {})) {
      for (const type of types) pending.push(responseSchemaPointer(operation, status, type));
    }
  }
  const sparse: Record<string, unknown> = {};
  const placed = new Set<string>();
  let any = false;
  for (let pointer = pending.pop(); pointer !== undefined; pointer = pending.pop()) {
    if (placed.has(pointer)) continue;
    placed.add(pointer);
    let tokens: string[];
    try {
      tokens = parsePointer(pointer);
    } catch {
      continue;
    }
    const value = resolvePointer(doc, tokens);
    if (value === undefined || tokens.length === 0) continue;
    place(sparse, tokens, value);
    any = true;
    for (const ref of refsIn(value)) {
      if (!ref.startsWith('#/')) continue;
      try {
        pending.push(decodeURIComponent(ref.slice(1)));
      } catch {
        // A malformed escape: the validator reports the ref when it compiles.
      }
    }
  }
  return any ? sparse : undefined;
}

/** Sets `value` at `tokens` in `root`, making the objects on the way. */
function place(root: Record<string, unknown>, tokens: readonly string[], value: unknown): void {
  let at: Record<string, unknown> = root;
  for (const token of tokens.slice(0, -1)) {
    const next = at[token];
    if (next === null || typeof next !== 'object') at[token] = {};
    at = at[token] as Record<string, unknown>;
  }
  at[tokens[tokens.length - 1]!] = value;
}

/** Every `$ref` string in a schema, data members and extensions left out; iterative, and safe on cyclic graphs. */
function refsIn(schema: unknown): string[] {
  const refs: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    seen.add(item);
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    for (const [key, child] of Object.entries(item)) {
      if (key === '$ref' && typeof child === 'string') refs.push(child);
      else if (!DATA_MEMBERS.has(key) && !key.startsWith('x-')) stack.push(child);
    }
  }
  return refs;
}
