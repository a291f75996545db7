/** Before the resolver sees a document: hide the `$ref`s it must not follow, refuse pointers it cannot afford. */

import { escapePointerToken } from '../expressions/json-pointer.js';
import { DescriptionError } from './errors.js';
import { shortRef } from './read-policy.js';

/** More segments than any real description nests; the resolver's cost grows with the square of the count. */
export const MAX_POINTER_SEGMENTS = 128;

/** Members whose contents a request never needs; examples may even hold literal `$ref` data. */
export const SKIPPED_MEMBERS: ReadonlySet<string> = new Set(['example', 'examples', 'callbacks', 'links']);

/** `$ref`s taken out of a document, to put back once it is dereferenced. */
export type HiddenRefs = Array<{ holder: Record<string, unknown>; ref: unknown }>;

interface Entry {
  value: unknown;
  parent: Entry | undefined;
  key: string;
  hidden: boolean;
}

/**
 * Walks `doc` (in place, iteratively): every `$ref` inside an extension (`x-…`), an example, a
 * callback or a link is removed and added to `hidden`, so the resolver never reads the file or
 * URL it names (restoreRefs puts them back). Throws DescriptionError DESCRIPTION_REFUSED for a
 * JSON pointer of more than MAX_POINTER_SEGMENTS segments, naming `location#pointer` of the ref.
 */
export function hideSkippedRefs(doc: unknown, location: string, hidden: HiddenRefs): void {
  const stack: Entry[] = [{ value: doc, parent: undefined, key: '', hidden: false }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value } = entry;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, parent: entry, key: String(i), hidden: entry.hidden }));
      continue;
    }
    const object = value as Record<string, unknown>;
    if (Object.hasOwn(object, '$ref')) {
      if (entry.hidden) {
        hidden.push({ holder: object, ref: object.$ref });
        delete object.$ref;
      } else if (typeof object.$ref === 'string') {
        checkPointer(object.$ref, location, entry);
      }
    }
    for (const [key, child] of Object.entries(object)) {
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child, parent: entry, key, hidden: entry.hidden || key.startsWith('x-') || SKIPPED_MEMBERS.has(key) });
      }
    }
  }
}

/** Puts the hidden `$ref`s back where they were. */
export function restoreRefs(hidden: HiddenRefs): void {
  for (const { holder, ref } of hidden) holder.$ref = ref;
}

function checkPointer(ref: string, location: string, entry: Entry): void {
  const hash = ref.indexOf('#');
  if (hash === -1) return;
  let segments = 0;
  for (let at = ref.indexOf('/', hash); at !== -1 && segments <= MAX_POINTER_SEGMENTS; at = ref.indexOf('/', at + 1)) segments++;
  if (segments <= MAX_POINTER_SEGMENTS) return;
  throw new DescriptionError(
    'DESCRIPTION_REFUSED',
    location,
    `${location}#${pointerOf(entry)}: $ref "${shortRef(ref)}" has more than ${MAX_POINTER_SEGMENTS} JSON pointer segments; refusing to resolve it (point at a shallower target)`,
  );
}

function pointerOf(entry: Entry): string {
  const keys: string[] = [];
  for (let at: Entry | undefined = entry; at?.parent !== undefined; at = at.parent) keys.push(escapePointerToken(at.key));
  return keys.length === 0 ? '' : `/${keys.reverse().join('/')}`;
}
