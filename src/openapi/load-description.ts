import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FetchedRef } from './dereference.js';
import { DescriptionError } from './errors.js';
import { parseDescription } from './parse-description.js';
import { formatBytes, LocalReadError, readLocalFile } from './read-local-file.js';
import { readPolicyFor, type ReadPolicy } from './read-policy.js';
import type { OpenApiDescription } from './types.js';

export interface LoadDescriptionOptions {
  /** The Arazzo document (file path, or http(s) URL) that relative locations are resolved from. */
  baseFile: string;
  /** Fetches an http(s) URL as text (with its final URL after redirects, when known); the lead passes the request pipeline (with its cache) here. */
  fetchText: (url: string) => Promise<FetchedRef>;
  /** What the description and its `$ref`s may read; by default files inside the folder of `baseFile`, 10 MiB each. */
  policy?: Partial<ReadPolicy>;
}

const HTTP_URL = /^https?:\/\//i;
const OTHER_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Reads or fetches the description at `location` (relative path, absolute path, file:// or
 * http(s) URL) and parses it. Throws DescriptionError: DESCRIPTION_UNREADABLE when it cannot be
 * read or fetched, DESCRIPTION_REFUSED when the policy forbids reading it (outside the Arazzo
 * document's folder, not a regular file, over the size cap), and whatever parseDescription throws.
 */
export async function loadDescription(location: string, opts: LoadDescriptionOptions): Promise<OpenApiDescription> {
  const target = resolveLocation(location.trim(), opts.baseFile);
  const policy = readPolicyFor(opts.baseFile, opts.policy);
  const text = target.remote ? await fetchDescription(target.location, opts.fetchText, policy.maxBytes) : await readDescription(target.location, policy);
  return parseDescription(text, target.location, { fetchText: opts.fetchText, policy });
}

/**
 * Reads a local source description under `policy`: inside its roots unless the user named it,
 * never in a denied folder, a regular file within the size cap. Throws DescriptionError
 * DESCRIPTION_REFUSED or DESCRIPTION_UNREADABLE.
 */
export async function readDescription(path: string, policy: ReadPolicy): Promise<string> {
  return readLocalFile(path, policy, sourceRoots(policy)).catch((err: unknown) => {
    throw descriptionReadError(path, err);
  });
}

function sourceRoots(policy: ReadPolicy): readonly string[] | undefined {
  return policy.explicitSource === true ? undefined : policy.roots;
}

function descriptionReadError(path: string, err: unknown): unknown {
  if (!(err instanceof LocalReadError)) return err;
  if (err.refused) return new DescriptionError('DESCRIPTION_REFUSED', path, `${path}: refusing to read the description: ${err.reason}`, { cause: err });
  const reason =
    err.reason === 'file not found' ? "file not found; check the source description url (relative paths start from the Arazzo document's folder)"
    : err.reason.startsWith('is a directory') ? 'is a directory; point the source description at the description file'
    : err.reason;
  return new DescriptionError('DESCRIPTION_UNREADABLE', path, `${path}: cannot read the description: ${reason}`, { cause: err });
}

/** Throws DescriptionError DESCRIPTION_REFUSED when a fetched description is larger than `maxBytes`. */
export function checkFetchedSize(url: string, text: string, maxBytes: number): void {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    throw new DescriptionError('DESCRIPTION_REFUSED', url, `${url}: refusing the description: it is larger than ${formatBytes(maxBytes)}`);
  }
}

/**
 * Where a source description `location` points: an http(s) URL (remote) or an absolute file path,
 * resolved against `baseFile`. Throws DescriptionError DESCRIPTION_UNREADABLE for an empty
 * location, a bad file URL or another URL scheme.
 */
export function resolveLocation(location: string, baseFile: string): { location: string; remote: boolean } {
  if (location === '') {
    throw new DescriptionError('DESCRIPTION_UNREADABLE', location, `${baseFile}: a source description has an empty url; give a file path or http(s) URL`);
  }
  if (HTTP_URL.test(location)) return { location, remote: true };
  if (location.startsWith('file:')) {
    try {
      return { location: fileURLToPath(location), remote: false };
    } catch (err) {
      throw new DescriptionError('DESCRIPTION_UNREADABLE', location, `${location}: not a usable file URL (${(err as Error).message}); use an absolute file:///path`, { cause: err });
    }
  }
  if (OTHER_URL.test(location)) {
    throw new DescriptionError('DESCRIPTION_UNREADABLE', location, `${location}: unsupported URL scheme; use a file path or an http(s) URL`);
  }
  if (isAbsolute(location)) return { location, remote: false };
  // An Arazzo document fetched over http(s) has its relative sources on the same server.
  if (HTTP_URL.test(baseFile)) return { location: new URL(location, baseFile).href, remote: true };
  return { location: resolve(dirname(baseFile), location), remote: false };
}

async function fetchDescription(url: string, fetchText: (url: string) => Promise<FetchedRef>, maxBytes: number): Promise<string> {
  let fetched: FetchedRef;
  try {
    fetched = await fetchText(url);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
    throw new DescriptionError('DESCRIPTION_UNREADABLE', url, `${url}: cannot fetch the description: ${reason}; check the URL and your network`, { cause: err });
  }
  const text = typeof fetched === 'string' ? fetched : fetched.text;
  checkFetchedSize(url, text, maxBytes);
  return text;
}
