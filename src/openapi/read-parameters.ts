import { DescriptionError } from './errors.js';
import type { ParameterLocation, ParameterSpec } from './types.js';

const LOCATIONS: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie']);

/**
 * Merges path-item and operation parameters by (name, in), the operation's winning, in
 * declaration order. Throws DescriptionError DESCRIPTION_INVALID on a parameter without a
 * string `name` or with an unknown `in`, naming its pointer.
 */
export function readParameters(
  pathLevel: unknown,
  operationLevel: unknown,
  pointers: { pathItem: string; operation: string },
  location: string,
): ParameterSpec[] {
  const merged = new Map<string, ParameterSpec>();
  for (const spec of readList(pathLevel, `${pointers.pathItem}/parameters`, location)) merged.set(key(spec), spec);
  for (const spec of readList(operationLevel, `${pointers.operation}/parameters`, location)) merged.set(key(spec), spec);
  return [...merged.values()];
}

/** Identity of a parameter: header names are case-insensitive (RFC 9110), others are not. */
function key(spec: ParameterSpec): string {
  return `${spec.in}:${spec.in === 'header' ? spec.name.toLowerCase() : spec.name}`;
}

function readList(list: unknown, pointer: string, location: string): ParameterSpec[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw invalid(location, pointer, 'parameters must be an array');
  return list.map((raw, i) => readParameter(raw, `${pointer}/${i}`, location));
}

function readParameter(raw: unknown, pointer: string, location: string): ParameterSpec {
  if (raw === null || typeof raw !== 'object') throw invalid(location, pointer, 'a parameter must be an object');
  const p = raw as Record<string, unknown>;
  if (typeof p.name !== 'string' || p.name === '') throw invalid(location, pointer, 'a parameter needs a string "name"');
  if (typeof p.in !== 'string' || !LOCATIONS.has(p.in)) {
    throw invalid(location, pointer, `parameter "${p.name}" has "in: ${String(p.in)}"; use path, query, header or cookie`);
  }
  const where = p.in as ParameterLocation;
  const spec: ParameterSpec = { name: p.name, in: where, required: where === 'path' || p.required === true };
  if (typeof p.style === 'string') spec.style = p.style;
  if (typeof p.explode === 'boolean') spec.explode = p.explode;
  if (typeof p.allowReserved === 'boolean') spec.allowReserved = p.allowReserved;
  if (p.schema !== undefined) spec.schema = p.schema;
  if (p.content !== null && typeof p.content === 'object') {
    const [contentType] = Object.keys(p.content);
    if (contentType !== undefined) spec.contentType = contentType;
  }
  return spec;
}

function invalid(location: string, pointer: string, what: string): DescriptionError {
  return new DescriptionError('DESCRIPTION_INVALID', location, `${location}#${pointer}: ${what}; fix the description`);
}
