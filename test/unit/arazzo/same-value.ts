/** Deep equality for parsed documents, stricter than toEqual: prototypes, own keys in the same order, property descriptors, Object.is on primitives (-0, NaN). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b);
  if (keysA.length !== keysB.length || keysA.some((key, i) => key !== keysB[i])) return false;
  return keysA.every((key) => {
    const da = Object.getOwnPropertyDescriptor(a, key);
    const db = Object.getOwnPropertyDescriptor(b, key);
    return da?.enumerable === db?.enumerable && da?.writable === db?.writable && da?.configurable === db?.configurable && sameValue(da?.value, db?.value);
  });
}
