/** Fetching an http(s) description through the cache: fresh copies, conditional requests, offline fallback. */

import type { Pipeline } from '../http/create-pipeline.js';
import { TransportError } from '../http/transport-error.js';
import type { HttpResponse } from '../http/types.js';
import { redactUrl, secretNames } from '../output/redact.js';
import type { BodyStore, CachedBody, Validators } from './body-store.js';
import { formatAge } from './format-age.js';
import { sha256 } from './sha256.js';

/** Thrown when a description URL answers with an HTTP error and no cached copy can stand in. */
export class DescriptionFetchError extends Error {
  override readonly name = 'DescriptionFetchError';
  readonly code = 'DESCRIPTION_FETCH';

  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`HTTP ${status} for ${url}`);
  }
}

export interface FetchedText {
  text: string;
  /** SHA-256 of `text`: the key of its parsed index. */
  bodyHash: string;
  /** Where the text came from after redirects (the requested URL when there were none). */
  url: string;
}

export interface CachedFetchDeps {
  pipeline: Pipeline;
  /** Absent: every call goes to the network (no cache directory). */
  store?: BodyStore;
  ttlMs: number;
  now: () => number;
  /** Receives the offline-fallback warning (one line, no secrets). */
  warn: (message: string) => void;
}

const ACCEPT = 'application/json, application/yaml, text/yaml, */*';

/**
 * A fetcher of description text. A copy younger than the TTL is used without a request; an older
 * one is revalidated (If-None-Match / If-Modified-Since, 304 reuses it); when the server cannot be
 * reached or answers 5xx, an existing copy is used with a warning. Rejects with TransportError or
 * DescriptionFetchError when there is no copy to fall back on.
 */
export function cachedFetcher(deps: CachedFetchDeps): (url: string) => Promise<FetchedText> {
  const { pipeline, store } = deps;
  const send = (url: string, validators: Validators): Promise<HttpResponse> => {
    const headers: Record<string, string> = { accept: ACCEPT };
    if (validators.etag !== undefined) headers['if-none-match'] = validators.etag;
    if (validators.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
    return pipeline.send({ method: 'GET', url, headers });
  };
  const remember = async (url: string, text: string, response: HttpResponse): Promise<FetchedText> => {
    // The cache only saves time: a disk that refuses the write must not fail the command.
    const saved = await store?.save(url, text, validatorsOf(response), deps.now(), response.url).catch(() => undefined);
    return { text, bodyHash: saved?.bodyHash ?? sha256(text), url: response.url || url };
  };

  return async (url) => {
    const cached = await store?.readMeta(url);
    const cachedText = (entry: CachedBody): Promise<string | undefined> => store?.readBody(entry) ?? Promise.resolve(undefined);
    if (cached !== undefined && isFresh(cached, deps)) {
      const text = await cachedText(cached);
      if (text !== undefined) return { text, bodyHash: cached.bodyHash, url: cached.finalUrl ?? url };
    }
    const fallBack = async (why: string): Promise<FetchedText | undefined> => {
      const text = cached === undefined ? undefined : await cachedText(cached);
      if (cached === undefined || text === undefined) return undefined;
      deps.warn(`${shown(url)}: ${why}; using the copy cached ${formatAge(deps.now() - cached.fetchedAt)} ago`);
      return { text, bodyHash: cached.bodyHash, url: cached.finalUrl ?? url };
    };

    let response: HttpResponse;
    try {
      response = await send(url, cached ?? {});
    } catch (error) {
      if (!(error instanceof TransportError) || error.code === 'ABORTED') throw error;
      const used = await fallBack(`the server could not be reached (${error.message})`);
      if (used) return used;
      throw error;
    }
    if (response.status === 304 && cached !== undefined) {
      const text = await cachedText(cached);
      if (text !== undefined) {
        await store?.touch(cached, validatorsOf(response), deps.now()).catch(() => undefined);
        return { text, bodyHash: cached.bodyHash, url: cached.finalUrl ?? url };
      }
      // The body vanished between the meta read and now (a concurrent `tool cache clear`): ask for it whole.
      response = await send(url, {});
    }
    if (response.status >= 200 && response.status <= 299) return remember(url, bodyText(response), response);
    if (response.status >= 500) {
      const used = await fallBack(`the server answered HTTP ${response.status}`);
      if (used) return used;
    }
    throw new DescriptionFetchError(shown(url), response.status);
  };
}

function isFresh(entry: CachedBody, deps: { ttlMs: number; now: () => number }): boolean {
  const age = deps.now() - entry.fetchedAt;
  // A fetchedAt in the future means the clock moved back: revalidate rather than trust it.
  return age >= 0 && age < deps.ttlMs;
}

function validatorsOf(response: HttpResponse): Validators {
  const etag = first(response.headers.etag);
  const lastModified = first(response.headers['last-modified']);
  return { ...(etag !== undefined ? { etag } : {}), ...(lastModified !== undefined ? { lastModified } : {}) };
}

/** The body as the server sent it (the pipeline also gives it parsed, which would lose the exact text). */
function bodyText(response: HttpResponse): string {
  const body = response.body;
  if (typeof body === 'string') return body;
  if (response.bytes !== undefined) return response.bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return body === undefined ? '' : JSON.stringify(body);
}

/** The URL as it may be printed: secret query values masked. */
function shown(url: string): string {
  return redactUrl(url, secretNames(undefined));
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
