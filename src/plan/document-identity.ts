/**
 * Arazzo 1.1 identity-based references: a document's `$self` is its URI, and a source `url` that
 * resolves to a document's `$self` names that document, wherever it was read from. The URI a
 * source url names is resolved against its document's base URI: `$self` (itself resolved against
 * the document's location when relative), else the location. Only identity uses that base: what
 * is read is still read from the location, by the read rules of source descriptions, so a
 * document's `$self` cannot send the run's reads to another host (docs/security.md).
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A location (an absolute path or an http(s) URL) as a URL. */
export function locationUrl(location: string): string {
  return /^https?:\/\//i.test(location) || !isAbsolute(location) ? location : pathToFileURL(location).href;
}

/** A document's identity: its `$self` resolved against its location, without a fragment; undefined without `$self` (or when it is not a URI-reference). */
export function selfIdentity(self: string | undefined, location: string): string | undefined {
  if (self === undefined) return undefined;
  try {
    const url = new URL(self, locationUrl(location));
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** The URI a source url names, resolved against its document's base URI (`$self`, else the location); undefined when it does not resolve. */
export function namedIdentity(url: string, self: string | undefined, location: string): string | undefined {
  try {
    const named = new URL(url.trim(), selfIdentity(self, location) ?? locationUrl(location));
    named.hash = '';
    return named.href;
  } catch {
    return undefined;
  }
}
