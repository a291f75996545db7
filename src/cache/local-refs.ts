/** Whether a description stands alone, so its parsed index depends on its own text only. */

const REF = /\$ref/g;
const LOCAL_REF = /\$ref['"]?\s*:\s*['"]?#/g;

/**
 * True when every `$ref` in the text points inside the document (`#...`). A reference to another
 * file or URL makes the index depend on that document too, so it is not cached; anything the
 * pattern does not recognise counts as external (a miss is only slower, a wrong hit is wrong).
 */
export function hasOnlyLocalRefs(text: string): boolean {
  const all = text.match(REF)?.length ?? 0;
  if (all === 0) return true;
  return (text.match(LOCAL_REF)?.length ?? 0) === all;
}
