import { stringifyJson } from '../expressions/stringify-json.js';

/** How a parameter value looks to OpenAPI's style rules: empty, primitive, array or object. */
export type ValueShape =
  | { kind: 'empty' }
  | { kind: 'primitive'; text: string }
  | { kind: 'array'; items: string[] }
  | { kind: 'object'; entries: Array<[string, string]> };

/**
 * Classifies a value and stringifies its leaves: null/undefined and empty arrays/objects are
 * empty; booleans and numbers are stringified; nested arrays/objects (which OpenAPI leaves
 * undefined) become JSON text.
 */
export function shapeOf(value: unknown): ValueShape {
  if (value === null || value === undefined) return EMPTY;
  if (Array.isArray(value)) {
    return value.length === 0 ? EMPTY : { kind: 'array', items: value.map(leafText) };
  }
  if (isPlainObject(value)) {
    const entries: Array<[string, string]> = [];
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) entries.push([key, leafText(item)]);
    }
    return entries.length === 0 ? EMPTY : { kind: 'object', entries };
  }
  return { kind: 'primitive', text: leafText(value) };
}

/** A value as one string: scalars stringified, dates in ISO form, bytes as UTF-8, structures as JSON. */
export function leafText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return stringifyJson(value) ?? '';
}

/** Objects whose keys are data: not arrays, dates or byte buffers. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}

const EMPTY: ValueShape = { kind: 'empty' };
