/** Substrings this long or longer are views into the string they were cut from (V8's SlicedString). */
const SLICE_MIN_LENGTH = 13;

/**
 * A copy of `text` that keeps no other string alive. V8 makes a substring of 13 or more
 * characters a view into the string it was cut from, and the parsers cut every document string
 * from the document's text: one expression kept for the run kept the whole text alive (1.7 MB for
 * 5000 steps; docs/performance.md, fifth pass). JSON round-trips every string exactly.
 */
export function ownString(text: string): string {
  return text.length < SLICE_MIN_LENGTH ? text : (JSON.parse(JSON.stringify(text)) as string);
}
