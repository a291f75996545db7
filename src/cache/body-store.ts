/** Fetched description bodies on disk, with the validators needed to revalidate them. */

import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import { markUsed } from './evict-entries.js';
import { sha256 } from './sha256.js';

/** What is known about one cached URL (the body itself is read separately, only when needed). */
export interface CachedBody {
  url: string;
  /** SHA-256 of the body; also names the body file, so a meta file never points at a half-written body. */
  bodyHash: string;
  etag?: string;
  lastModified?: string;
  /** Epoch milliseconds of the last fetch or successful revalidation. */
  fetchedAt: number;
  /** Where the body came from after redirects, when that is not `url`. */
  finalUrl?: string;
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface BodyStore {
  /** The entry for `url`, or undefined when there is none or it is unreadable (treated as a miss). */
  readMeta(url: string): Promise<CachedBody | undefined>;
  /** The body of an entry, or undefined when its file has gone (cleared meanwhile). */
  readBody(entry: CachedBody): Promise<string | undefined>;
  /** Stores a freshly fetched body (`finalUrl`: where redirects led); returns the new entry. Throws the fs error when the disk refuses. */
  save(url: string, body: string, validators: Validators, fetchedAt: number, finalUrl?: string): Promise<CachedBody>;
  /** Records a successful revalidation (304): same body, new fetchedAt and validators. */
  touch(entry: CachedBody, validators: Validators, fetchedAt: number): Promise<CachedBody>;
}

const META_FORMAT = 1;
// The cache may hold URLs with tokens in their query string: keep it private like tokens.json.
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * The body store in `dir` (`$XDG_CACHE_HOME/tool/descriptions`); nothing is touched until used.
 * `afterWrite` receives the files of each entry just saved (the cache's size cap runs there).
 */
export function bodyStore(dir: string, afterWrite: (files: string[]) => Promise<void> = async () => undefined): BodyStore {
  const metaPath = (url: string) => join(dir, `${sha256(url)}.json`);
  const bodyPath = (url: string, bodyHash: string) => join(dir, `${sha256(url)}.${bodyHash}.body`);
  const writeMeta = (entry: CachedBody) =>
    writeFileAtomic(metaPath(entry.url), `${JSON.stringify({ format: META_FORMAT, ...entry, fetchedAt: new Date(entry.fetchedAt).toISOString() })}\n`, {
      mode: FILE_MODE,
      dirMode: DIR_MODE,
    });

  const readMeta = async (url: string): Promise<CachedBody | undefined> => {
    const text = await readFile(metaPath(url), 'utf8').catch(() => undefined);
    return text === undefined ? undefined : parseMeta(text, url);
  };

  return {
    readMeta,
    async readBody(entry) {
      const path = bodyPath(entry.url, entry.bodyHash);
      const body = await readFile(path, 'utf8').catch(() => undefined);
      if (body !== undefined) await markUsed(path);
      return body;
    },
    async save(url, body, validators, fetchedAt, finalUrl) {
      const previous = await readMeta(url);
      const entry: CachedBody = { url, bodyHash: sha256(body), ...validators, fetchedAt, ...(finalUrl !== undefined && finalUrl !== url ? { finalUrl } : {}) };
      await writeFileAtomic(bodyPath(url, entry.bodyHash), body, { mode: FILE_MODE, dirMode: DIR_MODE });
      await writeMeta(entry);
      if (previous !== undefined && previous.bodyHash !== entry.bodyHash) await unlink(bodyPath(url, previous.bodyHash)).catch(() => undefined);
      await afterWrite([metaPath(url), bodyPath(url, entry.bodyHash)]);
      return entry;
    },
    async touch(entry, validators, fetchedAt) {
      // A 304 may carry updated validators (RFC 9110 §15.4.5); keep the old ones it does not repeat.
      const touched: CachedBody = { ...entry, ...definedOnly(validators), fetchedAt };
      await writeMeta(touched);
      return touched;
    },
  };
}

/** A meta file's entry, or undefined for anything unexpected (a hand edit, an older format, another URL). */
function parseMeta(text: string, url: string): CachedBody | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object') return undefined;
  const meta = raw as Record<string, unknown>;
  const fetchedAt = typeof meta.fetchedAt === 'string' ? Date.parse(meta.fetchedAt) : Number.NaN;
  if (meta.format !== META_FORMAT || meta.url !== url || typeof meta.bodyHash !== 'string' || !/^[0-9a-f]{64}$/.test(meta.bodyHash) || Number.isNaN(fetchedAt)) {
    return undefined;
  }
  return {
    url,
    bodyHash: meta.bodyHash,
    ...(typeof meta.etag === 'string' ? { etag: meta.etag } : {}),
    ...(typeof meta.lastModified === 'string' ? { lastModified: meta.lastModified } : {}),
    fetchedAt,
    ...(typeof meta.finalUrl === 'string' ? { finalUrl: meta.finalUrl } : {}),
  };
}

function definedOnly(validators: Validators): Validators {
  const out: Validators = {};
  if (validators.etag !== undefined) out.etag = validators.etag;
  if (validators.lastModified !== undefined) out.lastModified = validators.lastModified;
  return out;
}
