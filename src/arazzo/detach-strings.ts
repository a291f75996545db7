/** Substrings this long or longer are views into the string they were cut from (V8's SlicedString). */
const SLICE_MIN_LENGTH = 13;

/**
 * Replaces, in place, every string of `value` (a parsed document: plain objects, arrays and
 * scalars) that may be a view into the document's text with a copy of its own, and returns
 * `value`. `yaml` and JSON.parse cut strings from the text, and V8 keeps a substring of
 * 13 or more characters as a view that keeps the whole text alive: the expressions, step ids and
 * URLs a run keeps would keep the document text (1.7 MB for 5000 steps) alive to the end of the
 * run (measured in the fifth pass of docs/performance.md, in git history). JSON round-trips every string exactly.
 */
export function detachStrings<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    // A key `__proto__` (JSON.parse makes it an own property) is skipped: assigning it would set the prototype.
    const list = Array.isArray(node) ? (node as unknown[]) : undefined;
    const keys = list === undefined ? Object.keys(node) : undefined;
    const count = list?.length ?? keys!.length;
    const record = node as Record<string | number, unknown>;
    for (let i = 0; i < count; i++) {
      const key = keys === undefined ? i : keys[i]!;
      if (key === '__proto__') continue;
      const item = record[key];
      if (typeof item === 'string') {
        if (item.length >= SLICE_MIN_LENGTH) record[key] = JSON.parse(JSON.stringify(item)) as string;
      } else if (item !== null && typeof item === 'object') {
        pending.push(item);
      }
    }
  }
  return value;
}
