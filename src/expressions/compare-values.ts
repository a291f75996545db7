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

/** Strict structural equality of JSON values: same types, arrays in order, objects with the same keys. Any depth: it keeps its own stack. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // Pairs still to compare, flattened: [left0, right0, left1, right1, …].
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let i = x.length - 1; i >= 0; i--) pending.push(x[i], y[i]);
      continue;
    }
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pending.push((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]);
    }
  }
  return true;
}

/**
 * `==` of the condition language: numeric when a number meets a numeric string, case-insensitive
 * when two strings meet (Arazzo's Criterion Object: "String comparisons MUST be case insensitive"),
 * otherwise jsonEqual (strings inside arrays and objects compare exactly).
 */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'string') {
    if (typeof b === 'string') return a === b || a.toLowerCase() === b.toLowerCase();
    if (typeof b === 'number') return toNumber(a) === b;
    return false;
  }
  if (typeof a === 'number' && typeof b === 'string') return toNumber(b) === a;
  return jsonEqual(a, b);
}

