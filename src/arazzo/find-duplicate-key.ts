import type { Document, Node as YamlNode } from 'yaml';
import { yamlLibrary } from './yaml-library.js';

/** A key given twice in one mapping: the second one's value and where it starts in the text. */
export interface DuplicateKey {
  key: unknown;
  offset: number;
}

/**
 * The first key, in the order of the text, that a mapping of the document holds twice, or undefined.
 * Keys are equal as the `yaml` library's `uniqueKeys: true` has them (scalars with the same value);
 * collections as keys are never equal. Linear in the size of the document: the library's own check
 * compares each key with every earlier key of its mapping, which takes minutes on a mapping of
 * 300,000 keys (issue 23, item 12), so documents are parsed with `uniqueKeys: false` and checked
 * here with a Set per mapping. Walks the tree with a stack of its own (a deep document cannot
 * overflow the call stack here) and never follows an alias (the anchored node is checked where it is).
 */
export function findDuplicateKey(doc: Document): DuplicateKey | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  let first: DuplicateKey | undefined;
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as YamlNode | null;
        if (isScalar(key)) {
          const offset = key.range?.[0] ?? 0;
          if (seen.has(key.value)) {
            if (first === undefined || offset < first.offset) first = { key: key.value, offset };
          } else {
            seen.add(key.value);
          }
        } else if (key !== null) {
          pending.push(key);
        }
        pending.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) pending.push(isPair(item) ? item.value : item);
    }
  }
  return first;
}
