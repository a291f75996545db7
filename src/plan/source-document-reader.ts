/**
 * Where the sources of an Arazzo document loaded as a source (v2) point, and reading such a
 * document's text, by the rules of OpenAPI descriptions: a local file must be a regular file inside
 * the allowed folders (10 MiB at most), a remote one goes through the description fetch and cache.
 * A document fetched over http(s) is held to the rules of a remote description's `$ref`s: its
 * sources stay on its origin (or a --tool-allow-ref-host host), and never name local files.
 */
import type { FetchedText } from '../cache/fetch-description.js';
import { redactUrl, secretNames } from '../output/redact.js';
import { DescriptionError } from '../openapi/errors.js';
import { checkFetchedSize, readDescription, resolveLocation } from '../openapi/load-description.js';
import { LocalReadError } from '../openapi/read-local-file.js';
import { remoteRefRefusal, type ReadPolicy } from '../openapi/read-policy.js';

/** An Arazzo source's text, and where it was read (an absolute path or the URL it was fetched from). */
export interface SourceDocumentText {
  text: string;
  location: string;
  remote: boolean;
}

export interface SourceDocumentReaderDeps {
  policy: ReadPolicy;
  /** The description fetcher (pipeline and description cache). */
  fetch: (url: string) => Promise<FetchedText>;
  /** Trusts the origin of a fetched document: the `$ref`s of its descriptions may reach it. */
  trustOrigin: (url: string) => void;
}

const HTTP_URL = /^https?:\/\//i;

/**
 * Where the source `location` of the document at `base` (an absolute path or an http(s) URL)
 * points. Throws DescriptionError: DESCRIPTION_UNREADABLE for a location that is not a file path
 * or http(s) URL, DESCRIPTION_REFUSED when a remote document names a local file, or a URL off its
 * origin whose host `allowRefHosts` does not list.
 */
export function sourceTarget(location: string, base: string, allowRefHosts: readonly string[]): { location: string; remote: boolean } {
  const target = resolveLocation(location.trim(), base);
  if (!HTTP_URL.test(base)) return target;
  if (!target.remote) {
    throw new DescriptionError('DESCRIPTION_REFUSED', target.location, `${shown(base)}: source url "${location.trim()}" is refused: an Arazzo document fetched over http(s) may not name local files`);
  }
  if (remoteRefRefusal(target.location, base, allowRefHosts) !== undefined) {
    const to = new URL(target.location);
    throw new DescriptionError(
      'DESCRIPTION_REFUSED',
      target.location,
      `${shown(base)}: source url "${shown(target.location)}" is refused: the sources of an Arazzo document fetched over http(s) must stay on its origin (${new URL(base).origin}), and ${to.host} is not allowed; pass --tool-allow-ref-host ${to.hostname} if you trust it`,
    );
  }
  return target;
}

/**
 * Reads the Arazzo document at `location` as the document at `base` names it (see sourceTarget).
 * Throws DescriptionError: DESCRIPTION_REFUSED (a read rule), DESCRIPTION_UNREADABLE (missing,
 * unreadable, or the fetch failed).
 */
export async function readSourceDocument(location: string, base: string, deps: SourceDocumentReaderDeps, what = 'the Arazzo document'): Promise<SourceDocumentText> {
  const target = sourceTarget(location, base, deps.policy.allowRefHosts);
  if (target.remote) {
    deps.trustOrigin(target.location);
    let fetched: FetchedText;
    try {
      fetched = await deps.fetch(target.location);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
      throw new DescriptionError('DESCRIPTION_UNREADABLE', target.location, `${shown(target.location)}: cannot fetch ${what}: ${reason}; check the URL and your network`, { cause: error });
    }
    checkFetchedSize(shown(target.location), fetched.text, deps.policy.maxBytes);
    return { text: fetched.text, location: target.location, remote: true };
  }
  try {
    return { text: await readDescription(target.location, deps.policy), location: target.location, remote: false };
  } catch (error) {
    // readDescription words it for a description; this is an Arazzo document.
    if (error instanceof DescriptionError && error.cause instanceof LocalReadError) {
      const verb = error.code === 'DESCRIPTION_REFUSED' ? `refusing to read ${what}` : `cannot read ${what}`;
      const reason = error.cause.reason === 'file not found' ? "file not found; check the source url (relative paths start from the folder of the document that names it)" : error.cause.reason;
      throw new DescriptionError(error.code, target.location, `${target.location}: ${verb}: ${reason}`, { cause: error.cause });
    }
    throw error;
  }
}

function shown(url: string): string {
  return redactUrl(url, secretNames(undefined));
}
