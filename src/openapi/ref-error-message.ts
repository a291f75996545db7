import { fileURLToPath } from 'node:url';
import type { DescriptionError } from './errors.js';

/** Plugin failures captured during one dereference, richer than what the library reports. */
export interface RefFailures {
  parse?: DescriptionError;
  fetch?: { url: string; error: unknown };
  /** A local file a remote description referred to. */
  blocked?: string;
  /** A local file that could not be read (missing, a directory, no permission). */
  unreadable?: { url: string; reason: string };
  /** A ref that broke a read rule; it is thrown as it is. */
  refused?: DescriptionError;
}

interface LibraryError {
  name?: string;
  message?: string;
  source?: string;
  targetRef?: string;
  targetToken?: string;
  targetFound?: string;
  parentPath?: string;
}

/** A one-line message for a failed dereference: where the `$ref` is, what is wrong, what to check. */
export function refErrorMessage(err: unknown, location: string, failures: RefFailures): string {
  if (failures.parse) return `${location}: a $ref target does not parse: ${failures.parse.message}`;
  if (failures.fetch) {
    return `${location}: cannot fetch $ref target ${failures.fetch.url}: ${oneLine(messageOf(failures.fetch.error))}; check the URL and your network`;
  }
  if (failures.blocked !== undefined) {
    return `${location}: refusing to follow a $ref to ${displayName(failures.blocked)}: a remote description may not refer to local files`;
  }
  if (failures.unreadable !== undefined) {
    return `${location}: cannot read $ref target ${displayName(failures.unreadable.url)}: ${failures.unreadable.reason}; check the referenced file path`;
  }
  const e = (err ?? {}) as LibraryError;
  const source = e.source === undefined ? undefined : displayName(e.source);
  if (e.name === 'MissingPointerError' && e.targetRef !== undefined) {
    const target = source === undefined || source === location ? e.targetRef : `${source}${e.targetRef}`;
    return `${refSite(e.parentPath, location)}: $ref target ${target} does not exist (no "${e.targetToken}" in ${e.targetFound}); check the referenced file path and JSON pointer`;
  }
  if (e.name === 'ResolverError') {
    return `${location}: cannot read $ref target ${source}: ${oneLine(messageOf(err))}; check the referenced file path`;
  }
  return `${location}: cannot resolve a $ref: ${oneLine(messageOf(err))}; check the referenced file path and JSON pointer`;
}

/** `file#pointer` of the object holding the broken `$ref`; the library omits the file when it is the root. */
function refSite(parentPath: string | undefined, location: string): string {
  if (parentPath === undefined) return location;
  const hash = parentPath.indexOf('#');
  if (hash === -1) return displayName(parentPath);
  return `${hash === 0 ? location : displayName(parentPath.slice(0, hash))}${parentPath.slice(hash)}`;
}

/** A library URL as the user wrote it: a plain path for files, the URL otherwise. */
export function displayName(url: string): string {
  if (/^https?:/i.test(url)) return url;
  try {
    return url.startsWith('file:') ? fileURLToPath(url) : decodeURI(url);
  } catch {
    return url;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
