/**
 * Parsed Arazzo documents on disk, by the SHA-256 of their text, so that running or validating an
 * unchanged document again does not parse it again (docs/apis.md, the description cache).
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ParsedDocuments } from '../arazzo/load-document.js';
import type { RawObject } from '../arazzo/read-fields.js';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import { configPaths } from '../config/paths.js';
import { VERSION } from '../version.js';
import { cacheMaxBytes } from './cache-size.js';
import { descriptionCacheDir } from './description-cache.js';
import { evictEntries, markUsed } from './evict-entries.js';
import { sha256 } from './sha256.js';

/** Bumped whenever the stored shape changes; the tool version is part of the check too (a new parser may read a text differently). */
const DOCUMENT_FORMAT = 1;

/** The documents folder under the description cache folder `descriptionsDir`. */
export function documentStoreDir(descriptionsDir: string): string {
  return join(descriptionsDir, 'documents');
}

/**
 * The store of this environment's cache (`$XDG_CACHE_HOME/tool/descriptions/documents`), or
 * undefined when there is no usable cache home or TOOL_CACHE_MAX_MIB is invalid. Never throws:
 * the description loader reports a bad cache setting, after the document's own errors.
 */
export function openDocumentStore(env: Record<string, string | undefined>): ParsedDocuments | undefined {
  try {
    const descriptions = descriptionCacheDir(configPaths(env).cacheDir);
    const maxBytes = cacheMaxBytes(env);
    return documentStore(documentStoreDir(descriptions), (files) => evictEntries(descriptions, maxBytes, files));
  } catch {
    return undefined;
  }
}

/**
 * The store in `dir`: one file per text, named by the SHA-256 of the text, holding the value
 * parsed from it by this version of tool (a damaged or foreign file is a miss). A value JSON
 * cannot carry exactly (NaN, ±Infinity, -0) is not stored. Never throws: a store that cannot be
 * read or written costs a parse, nothing else. `afterWrite` receives the file just written (the
 * cache's size cap runs there).
 */
export function documentStore(dir: string, afterWrite: (files: string[]) => Promise<void> = async () => undefined): ParsedDocuments {
  // A miss hashes the text to read and again to write: the last hash is kept.
  let last: { text: string; hash: string } | undefined;
  const hashOf = (text: string): string => {
    if (last?.text !== text) last = { text, hash: sha256(text) };
    return last.hash;
  };
  const pathOf = (text: string) => join(dir, `${hashOf(text)}.json`);
  return {
    async read(text) {
      const file = pathOf(text);
      const stored = await readFile(file, 'utf8').catch(() => undefined);
      if (stored === undefined) return undefined;
      try {
        const entry = JSON.parse(stored) as Record<string, unknown>;
        if (entry.format !== DOCUMENT_FORMAT || entry.tool !== VERSION || entry.textHash !== hashOf(text) || !isMapping(entry.value)) return undefined;
        await markUsed(file);
        return entry.value;
      } catch {
        return undefined;
      }
    },
    async write(text, value) {
      let entry: string;
      try {
        entry = JSON.stringify({ format: DOCUMENT_FORMAT, tool: VERSION, textHash: hashOf(text), value }, exactNumbers);
      } catch {
        return;
      }
      const file = pathOf(text);
      try {
        await writeFileAtomic(file, entry, { mode: 0o600, dirMode: 0o700 });
        await afterWrite([file]);
      } catch {
        // Best effort, as the rest of the cache.
      }
    },
  };
}

/** A JSON.stringify replacer that refuses numbers JSON would change (NaN and the infinities become null, -0 becomes 0). */
function exactNumbers(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) throw new RangeError('not exact in JSON');
  return value;
}

function isMapping(value: unknown): value is RawObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
