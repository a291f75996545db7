/** Values nested thousands of levels deep, for the depth tests; no recursion anywhere. */

/** `{"a":{"a":…{"a":0}…}}`, `depth` objects deep, built as text. */
export function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
}

/** How many objects deep `value` nests along its "a" keys. */
export function depthOf(value: unknown): number {
  let depth = 0;
  for (let at = value; typeof at === 'object' && at !== null; at = (at as { a?: unknown }).a) depth++;
  return depth;
}
