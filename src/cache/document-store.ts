/**
 * Parsed Arazzo documents on disk, by the SHA-256 of their text, so that running or validating an
 * unchanged document again does not parse it again (docs/apis.md, the description cache).
 */

import type { Stats } from 'node:fs';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { ParsedDocuments } from '../arazzo/load-document.js';
import type { RawObject } from '../arazzo/read-fields.js';
import { refuseReadOnly } from '../config/refuse-read-only.js';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import { configPaths } from '../config/paths.js';
import { VERSION } from '../version.js';
import { cacheMaxBytes } from './cache-size.js';
import { descriptionCacheDir } from './description-cache.js';
import { evictEntries, markUsed } from './evict-entries.js';
import { sha256 } from './sha256.js';

/**
 * The version of what is stored: the shape of an entry, and how its value was read (format 2: by
 * the `yaml` library alone; 3: duplicate keys found by src/arazzo/find-duplicate-key.ts, which
 * refuses a repeated `.nan` key the library let through). An entry of another format, or of
 * another tool version, is a miss (and is replaced). Bump it when a change to the parse
 * (src/arazzo/parse-with-yaml.ts) may read some text differently: a stored value would otherwise
 * outlive the fix.
 */
export const DOCUMENT_FORMAT = 3;

/** The documents folder under the description cache folder `descriptionsDir`. */
export function documentStoreDir(descriptionsDir: string): string {
  return join(descriptionsDir, 'documents');
}

/**
 * The store of this environment's cache (`$XDG_CACHE_HOME/tool/descriptions/documents`), or
 * undefined when there is no usable cache home or TOOL_CACHE_MAX_MIB is invalid. Never throws: a
 * run goes on to report a bad cache setting (the description loader's exit 2); `validate` and
 * `graph`, which use the cache for nothing else, parse the document.
 */
export function openDocumentStore(env: Record<string, string | undefined>): ParsedDocuments | undefined {
  try {
    const root = configPaths(env).cacheDir;
    const descriptions = descriptionCacheDir(root);
    const maxBytes = cacheMaxBytes(env);
    return documentStore(documentStoreDir(descriptions), { root, afterWrite: (files) => evictEntries(descriptions, maxBytes, files) });
  } catch {
    return undefined;
  }
}

export interface DocumentStoreOptions {
  /** tool's own cache folder, which `dir` is in (`$XDG_CACHE_HOME/tool`); the folders from it down to `dir` follow tool's folder rules. Default: `dir`. */
  root?: string;
  /** Receives the file just written (the cache's size cap runs there). */
  afterWrite?: (files: string[]) => Promise<void>;
}

/**
 * The store in `dir`: one file per text, named by the SHA-256 of the text, holding the value
 * parsed from it (an entry of another format or tool version, or a damaged file, is a miss). A
 * value JSON cannot carry exactly (NaN, ±Infinity, -0, a tagged value: a Buffer, Date, Set or Map) is
 * not stored. tool's folder rules hold
 * for every folder from `root` down to `dir`: one that is missing is made 0700; one that group or
 * others may write, or that another user owns, is neither read from nor written to; one whose
 * owner may not write (a read-only 0500 folder) is not written to (docs/security.md); one with
 * group or other read permissions is narrowed to 0700 when written to. Never throws: a store that
 * cannot be read or written costs a parse, nothing else.
 */
export function documentStore(dir: string, options: DocumentStoreOptions = {}): ParsedDocuments {
  const chain = foldersFrom(options.root ?? dir, dir);
  // A miss hashes the text to read and again to write: the last hash is kept.
  let last: { text: string; hash: string } | undefined;
  const hashOf = (text: string): string => {
    if (last?.text !== text) last = { text, hash: sha256(text) };
    return last.hash;
  };
  const pathOf = (text: string) => join(dir, `${hashOf(text)}.json`);
  return {
    async read(text) {
      if (!(await trusted(chain))) return undefined;
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
        entry = JSON.stringify({ format: DOCUMENT_FORMAT, tool: VERSION, textHash: hashOf(text), value }, exactValues);
      } catch {
        return;
      }
      const file = pathOf(text);
      try {
        if (!(await writable(chain))) return;
        await writeFileAtomic(file, entry, { mode: 0o600, dirMode: 0o700 });
        await options.afterWrite?.([file]);
      } catch {
        // Best effort, as the rest of the cache.
      }
    },
  };
}

/** `root`, the folders below it and `dir`, top down (`dir` alone when it is not below `root`). */
function foldersFrom(root: string, dir: string): string[] {
  const chain = [dir];
  for (let at = dir; at !== root && dirname(at) !== at; ) {
    at = dirname(at);
    chain.unshift(at);
  }
  return chain[0] === root ? chain : [dir];
}

/** This process's user id, or undefined where there is none (Windows) or it cannot be read; read once. */
let uidOnce: { uid: number | undefined } | undefined;
function ownUid(): number | undefined {
  if (uidOnce === undefined) {
    let uid: number | undefined;
    try {
      uid = userInfo().uid;
    } catch {
      uid = undefined;
    }
    uidOnce = { uid: uid !== undefined && uid >= 0 ? uid : undefined };
  }
  return uidOnce.uid;
}

/** A directory of this user that group and others may not write: nobody else can have put files in it. */
function isOwnFolder(info: Stats): boolean {
  const uid = ownUid();
  return info.isDirectory() && (uid === undefined || info.uid === uid) && (info.mode & 0o022) === 0;
}

/** Whether every folder of `chain` exists and is this user's own (isOwnFolder). */
async function trusted(chain: readonly string[]): Promise<boolean> {
  for (const folder of chain) {
    const info = await stat(folder).catch(() => undefined);
    if (info === undefined || !isOwnFolder(info)) return false;
  }
  return true;
}

/**
 * Makes the missing folders of `chain` (0700) and narrows group and other permissions of the
 * existing ones (0755 becomes 0700); false, with nothing changed below it, at the first folder
 * that is not this user's own or whose owner may not write (refuseReadOnly's rule), which tool
 * leaves as it is.
 */
async function writable(chain: readonly string[]): Promise<boolean> {
  for (const [i, folder] of chain.entries()) {
    const info = await stat(folder).catch(() => undefined);
    if (info === undefined) {
      // The cache home itself may be missing too (as the code cache makes it).
      await mkdir(folder, { recursive: i === 0, mode: 0o700 });
      await chmod(folder, 0o700);
      continue;
    }
    if (!isOwnFolder(info) || !(await refuseReadOnly(folder).then(() => true, () => false))) return false;
    if ((info.mode & 0o077) !== 0) await chmod(folder, info.mode & 0o700);
  }
  return true;
}

/**
 * A JSON.stringify replacer that refuses what JSON would change: numbers (NaN and the infinities
 * become null, -0 becomes 0) and objects other than plain ones and arrays (what `yaml` builds for
 * tagged values: a Buffer for `!!binary`, a Date for `!!timestamp`, a Set, a Map). It reads the
 * holder's own value (`this[key]`), which JSON.stringify has not yet passed through `toJSON`.
 */
function exactValues(this: Record<string, unknown>, key: string, value: unknown): unknown {
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) throw new RangeError('not exact in JSON');
  const own = this[key];
  if (typeof own === 'object' && own !== null && !Array.isArray(own)) {
    const proto = Object.getPrototypeOf(own) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new RangeError('not a plain value');
  }
  return value;
}

function isMapping(value: unknown): value is RawObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
