import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DescriptionError } from './errors.js';
import { parseDescription } from './parse-description.js';
import type { OpenApiDescription } from './types.js';

export interface LoadDescriptionOptions {
  /** The Arazzo document (file path, or http(s) URL) that relative locations are resolved from. */
  baseFile: string;
  /** Fetches an http(s) URL as text; the lead passes the request pipeline (with its cache) here. */
  fetchText: (url: string) => Promise<string>;
}

const HTTP_URL = /^https?:\/\//i;
const OTHER_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Reads or fetches the description at `location` (relative path, absolute path, file:// or
 * http(s) URL) and parses it. Throws DescriptionError: DESCRIPTION_UNREADABLE when it cannot be
 * read or fetched, and whatever parseDescription throws.
 */
export async function loadDescription(location: string, opts: LoadDescriptionOptions): Promise<OpenApiDescription> {
  const target = resolveLocation(location.trim(), opts.baseFile);
  const text = target.remote ? await fetchDescription(target.location, opts.fetchText) : await readDescription(target.location);
  return parseDescription(text, target.location, { fetchText: opts.fetchText });
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

async function readDescription(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'file not found; check the source description url (relative paths start from the Arazzo document\'s folder)'
      : code === 'EISDIR' ? 'is a directory; point the source description at the description file'
      : code === 'EACCES' ? 'permission denied; make the file readable'
      : `${(err as Error).message}`;
    throw new DescriptionError('DESCRIPTION_UNREADABLE', path, `${path}: cannot read the description: ${reason}`, { cause: err });
  }
}

async function fetchDescription(url: string, fetchText: (url: string) => Promise<string>): Promise<string> {
  try {
    return await fetchText(url);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
    throw new DescriptionError('DESCRIPTION_UNREADABLE', url, `${url}: cannot fetch the description: ${reason}; check the URL and your network`, { cause: err });
  }
}
