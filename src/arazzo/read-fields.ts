/** Small, total readers over the raw YAML value: a field of the wrong type reads as absent. */
import { escapePointerToken } from '../expressions/json-pointer.js';
import type { Extra } from './model.js';

export type RawObject = Record<string, unknown>;

/** True for a plain mapping (not null, not an array). */
export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The pointer of `token` inside the node at `pointer` (RFC 6901 escaping). */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(String(token))}`;
}

/** `o[key]` when it is a string. */
export function stringField(o: RawObject, key: string): string | undefined {
  const value = o[key];
  return typeof value === 'string' ? value : undefined;
}

/** `o[key]` when it is a finite number. */
export function numberField(o: RawObject, key: string): number | undefined {
  const value = o[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `o[key]` when it is an array; undefined when absent or of another type. */
export function arrayField(o: RawObject, key: string): unknown[] | undefined {
  const value = o[key];
  return Array.isArray(value) ? value : undefined;
}

/** `o[key]` when it is a mapping; undefined otherwise. */
export function objectField(o: RawObject, key: string): RawObject | undefined {
  const value = o[key];
  return isObject(value) ? value : undefined;
}

/** Sets `key` as an own property, so a YAML key such as `__proto__` stays data instead of changing the prototype. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The string-valued entries of the mapping at `o[key]` (others are left to validation). */
export function stringMap(o: RawObject, key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(objectField(o, key) ?? {})) {
    if (typeof value === 'string') setOwn(out, name, value);
  }
  return out;
}

/** The strings of the array at `o[key]`. */
export function stringList(o: RawObject, key: string): string[] {
  return (arrayField(o, key) ?? []).filter((item): item is string => typeof item === 'string');
}

/** Every field of `o` that the model does not name, `x-` extensions included. */
export function extraOf(o: RawObject, known: readonly string[]): Extra {
  const extra: Extra = {};
  // Keys and an index, not entries: this runs for every object of the document, unoptimised in a fresh process.
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!known.includes(key)) setOwn(extra, key, o[key]);
  }
  return extra;
}
