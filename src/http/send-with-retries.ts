/** One logical request: auth, the transport retry loop, the 401 refresh, body parsing. */

import type { Got } from 'got';
import { pause, untilAborted } from './abortable.js';
import { wireBody } from './wire-body.js';
import { parseBody } from '../output/parse-body.js';
import { redactUrl, secretNames } from '../output/redact.js';
import type { RedirectContext } from './redirect-credentials.js';
import { retryDelayMs } from './retry-delay.js';
import { sendOnce, type AttemptLimits, type WireRequest, type WireResponse } from './send-once.js';
import { shouldRetry } from './should-retry.js';
import { TransportError } from './transport-error.js';
import type { AuthHook, HttpRequest, HttpResponse, TransportRetry } from './types.js';

export interface SendSettings {
  timeoutMs: number;
  retry: number;
  retryUnsafe: boolean;
  maxResponseBytes: number;
  maxRetryDelayMs: number;
}

interface Prepared {
  url: string;
  headers: Record<string, string>;
}

/**
 * Sends `req` until it gets a final response, telling `onRetry` before each transport retry's wait;
 * rejects with TransportError (a timeout after retries says how many attempts and how long in
 * all), or with what `auth.apply` throws.
 */
export async function sendWithRetries(
  client: Got,
  req: HttpRequest,
  settings: SendSettings,
  signal: AbortSignal | undefined,
  onRetry?: (retry: TransportRetry) => void,
): Promise<HttpResponse> {
  const started = performance.now();
  const { method } = req;
  const secrets = secretNames(req.auth);
  let prepared: Prepared = { url: req.url, headers: lowerCased(req.headers) };
  const shownUrl = (): string => redactUrl(prepared.url, secrets);
  const aborted = (): TransportError => new TransportError('ABORTED', 'aborted', { method, url: shownUrl() });
  if (signal?.aborted) throw aborted();

  const body = req.body === undefined ? undefined : wireBody(req.body);
  // An explicit Content-Type header wins for plain bytes; a multipart boundary must be ours.
  if (body !== undefined && (req.body?.kind === 'multipart' || prepared.headers['content-type'] === undefined)) {
    prepared.headers['content-type'] = body.contentType;
  }
  const auth = authFor(req);
  const unauthorised = prepared;
  if (auth !== undefined) prepared = await authorise(auth, unauthorised, false, signal, aborted);

  let context = redirectContext(req.url, auth, secrets, unauthorised, prepared);
  const limits: AttemptLimits = { timeoutMs: settings.timeoutMs, maxResponseBytes: settings.maxResponseBytes, shownUrl };
  const delay = { maxMs: settings.maxRetryDelayMs };
  let retries = 0;
  let refreshed = false;
  for (;;) {
    let response: WireResponse;
    try {
      const wire: WireRequest = { method, url: prepared.url, headers: prepared.headers, body: body?.data, context };
      if (req.followRedirects === false) wire.followRedirect = false;
      response = await sendOnce(client, wire, limits, signal);
    } catch (error) {
      const failure = error as TransportError;
      if (!shouldRetry(method, { errorCode: failure.errno ?? failure.code }, retries + 1, settings)) {
        failure.retries = retries;
        if (failure.code === 'TIMEOUT' && retries > 0) withAttempts(failure, performance.now() - started);
        throw failure;
      }
      const waitMs = retryDelayMs(retries + 1, undefined, delay);
      onRetry?.({ attempt: retries + 1, of: settings.retry, code: failure.code, delayMs: waitMs });
      if (!(await pause(waitMs, signal))) throw aborted();
      retries += 1;
      continue;
    }
    if (response.status === 401 && auth?.refreshOn401 === true && !refreshed && originOf(response.url) === auth.origin) {
      refreshed = true;
      prepared = await authorise(auth, unauthorised, true, signal, aborted);
      context = redirectContext(req.url, auth, secrets, unauthorised, prepared);
      continue;
    }
    if (shouldRetry(method, { status: response.status }, retries + 1, settings)) {
      const waitMs = retryDelayMs(retries + 1, firstValue(response.headers['retry-after']), delay);
      onRetry?.({ attempt: retries + 1, of: settings.retry, status: response.status, delayMs: waitMs });
      if (!(await pause(waitMs, signal))) throw aborted();
      retries += 1;
      continue;
    }
    return {
      status: response.status,
      headers: response.headers,
      body: parseBody(firstValue(response.headers['content-type']), response.bytes),
      bytes: response.bytes,
      url: response.url,
      durationMs: performance.now() - started,
      retries,
      requestHeaders: prepared.headers,
    };
  }
}

/**
 * `timed out after 1 s: GET …` becomes `timed out after 1 s (3 attempts, 4.6 s in all): GET …`:
 * the timeout is per attempt, and the run took longer than it says.
 */
function withAttempts(failure: TransportError, elapsedMs: number): void {
  const tail = `: ${failure.method} ${failure.url}`;
  if (!failure.message.endsWith(tail)) return;
  const head = failure.message.slice(0, -tail.length);
  failure.message = `${head} (${failure.retries + 1} attempts, ${(elapsedMs / 1000).toFixed(1)} s in all)${tail}`;
}

/** The auth hook when the request goes to its origin; credentials never go anywhere else. */
function authFor(req: HttpRequest): AuthHook | undefined {
  if (req.auth === undefined) return undefined;
  return originOf(req.url) === req.auth.origin ? req.auth : undefined;
}

/** A fresh copy of the request with credentials added, so a refresh never stacks on the old ones. */
async function authorise(
  auth: AuthHook,
  base: Prepared,
  retryAfter401: boolean,
  signal: AbortSignal | undefined,
  aborted: () => TransportError,
): Promise<Prepared> {
  const headers = { ...base.headers };
  const url = new URL(base.url);
  await untilAborted(auth.apply({ headers, url }, { retryAfter401 }), signal, aborted);
  return { url: url.href, headers: lowerCased(headers) };
}

/**
 * What a redirect must shed when it leaves the credentials' origin: the secret names, plus every
 * header and query parameter the auth chain set (registry headers are not secret by name, but
 * they belong to the API all the same).
 */
function redirectContext(requestUrl: string, auth: AuthHook | undefined, secrets: ReadonlySet<string>, before: Prepared, after: Prepared): RedirectContext {
  if (auth === undefined) return { requestUrl, secrets };
  const dropped = new Set(secrets);
  for (const name in after.headers) if (after.headers[name] !== before.headers[name]) dropped.add(name);
  const beforeQuery = new URL(before.url).searchParams;
  const credentialQuery = new Set<string>();
  for (const [name, value] of new URL(after.url).searchParams) if (!beforeQuery.getAll(name).includes(value)) credentialQuery.add(name);
  return { allowedOrigin: auth.origin, requestUrl, secrets: dropped, credentialQuery };
}

/** Header names folded to lower case (callers and auth hooks may use any case). */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
