/** Truthiness, numeric coercion and equality of the condition language, on JSON values. */

/** Whether a value counts as true in a condition: everything except false, null, undefined, 0, NaN, '', [] and {}. */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return false;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

// A decimal number as people write it in JSON or a header: optional sign, digits, fraction, exponent.
// Deliberately stricter than Number(): '' , ' ', '0x10', 'Infinity' are not numbers.
const NUMERIC_STRING = /^\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*$/;

/** The number a value stands for (a finite number, or a numeric string); undefined for anything else. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC_STRING.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Strict structural equality of JSON values: same types, arrays in order, objects with the same keys. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every(
    (key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** `==` of the condition language: numeric when a number meets a numeric string, otherwise jsonEqual. */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'string') return toNumber(b) === a;
  if (typeof a === 'string' && typeof b === 'number') return toNumber(a) === b;
  return jsonEqual(a, b);
}
