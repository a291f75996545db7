/** Reading a parsed configuration file field by field, naming the JSON pointer of the first bad field. */

import { formatPointer } from '../expressions/json-pointer.js';

/** Thrown by the readers below; readConfigFile turns it into a ConfigError with the field's line:col. */
export class ShapeProblem extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
    this.name = 'ShapeProblem';
  }
}

export type Path = readonly string[];

/** The pointer of a path, for messages and positions. */
export function pointerOf(path: Path): string {
  return formatPointer(path);
}

/** `value` as a plain object; throws ShapeProblem otherwise. */
export function objectAt(value: unknown, path: Path): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ShapeProblem(pointerOf(path), `${where(path)} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** `value` as a string; throws ShapeProblem otherwise. */
export function stringAt(value: unknown, path: Path): string {
  if (typeof value !== 'string') throw new ShapeProblem(pointerOf(path), `${where(path)} must be a string`);
  return value;
}

/** `value` as a string, or undefined when absent; throws ShapeProblem for any other type. */
export function optionalString(value: unknown, path: Path): string | undefined {
  return value === undefined ? undefined : stringAt(value, path);
}

/** `value` as an array of strings ([] when absent); throws ShapeProblem otherwise. */
export function stringList(value: unknown, path: Path): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ShapeProblem(pointerOf(path), `${where(path)} must be an array of strings`);
  return value.map((item, i) => stringAt(item, [...path, String(i)]));
}

/** `value` as a map of strings ({} when absent); throws ShapeProblem otherwise. */
export function stringMap(value: unknown, path: Path): Record<string, string> {
  if (value === undefined) return {};
  const object = objectAt(value, path);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(object)) out[key] = stringAt(item, [...path, key]);
  return out;
}

/** Runs a validator that throws on bad input and reports its message at `path`. */
export function checked<T>(path: Path, validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof ShapeProblem) throw error;
    throw new ShapeProblem(pointerOf(path), `${where(path)}: ${(error as Error).message}`);
  }
}

function where(path: Path): string {
  return path.length === 0 ? 'the file' : pointerOf(path);
}
