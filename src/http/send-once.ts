/** One attempt over the wire: a got stream read into a Buffer under the size cap. */

import type { Got } from 'got';
import type { RedirectContext } from './redirect-credentials.js';
import { whenAborted } from './abortable.js';
import { toTransportError } from './to-transport-error.js';
import { TransportError } from './transport-error.js';

export interface WireRequest {
  method: string;
  url: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: Buffer | string | undefined;
  context: RedirectContext;
  /** false: a 3xx is the response (the operation declares it), not a redirect to follow. */
  followRedirect?: false;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[]>;
  bytes: Buffer;
  url: string;
}

export interface AttemptLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Renders the request URL for an error message (secrets masked); called only on failure. */
  shownUrl: () => string;
}

/**
 * Sends once and reads the whole body; rejects with TransportError (ABORTED when `signal` fires,
 * TIMEOUT when the whole exchange, body included, takes longer than `limits.timeoutMs`).
 */
export function sendOnce(client: Got, wire: WireRequest, limits: AttemptLimits, signal?: AbortSignal): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const fail = (code: 'ABORTED' | 'RESPONSE_TOO_LARGE' | 'TIMEOUT' | undefined, error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopWaiting?.();
      stream.destroy();
      if (code === 'ABORTED') reject(new TransportError('ABORTED', 'aborted', { method: wire.method, url: limits.shownUrl() }));
      else if (code === 'RESPONSE_TOO_LARGE') reject(tooLarge(wire.method, limits));
      else if (code === 'TIMEOUT') reject(timedOut(wire.method, limits));
      else reject(toTransportError(error, wire.method, limits.shownUrl(), limits.timeoutMs));
    };
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let stopWaiting: (() => void) | undefined;
    let size = 0;
    const chunks: Buffer[] = [];

    let stream: ReturnType<Got['stream']>;
    try {
      stream = client.stream(wire.url, {
        method: wire.method as 'GET',
        headers: wire.headers,
        body: wire.body,
        context: wire.context as unknown as Record<string, unknown>,
        ...(wire.followRedirect === false ? { followRedirect: false } : {}),
      });
    } catch (error) {
      reject(toTransportError(error, wire.method, limits.shownUrl(), limits.timeoutMs));
      return;
    }
    // got auto-ends only bodiless GET and HEAD streams; everything else waits for a body.
    if (wire.body === undefined && wire.method !== 'GET' && wire.method !== 'HEAD') stream.end();
    if (signal) stopWaiting = whenAborted(signal, () => fail('ABORTED'));
    // One timer for the whole attempt, instead of got's timeout machinery (a timer set and
    // cleared per phase and event: ~30 µs a request). create-pipeline.ts gives got no timeout.
    if (limits.timeoutMs > 0 && Number.isFinite(limits.timeoutMs)) timer = setTimeout(fail, limits.timeoutMs, 'TIMEOUT');

    stream.on('response', (response: { headers: Record<string, string | string[] | undefined> }) => {
      // Content-Length counts compressed bytes, so a declared size over the cap is over it decoded too.
      const declared = Number(response.headers['content-length']);
      if (declared > limits.maxResponseBytes) fail('RESPONSE_TOO_LARGE');
    });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxResponseBytes) fail('RESPONSE_TOO_LARGE');
      else chunks.push(chunk);
    });
    stream.on('error', (error: unknown) => fail(undefined, error));
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopWaiting?.();
      const response = stream.response;
      if (response === undefined) {
        reject(toTransportError(new Error('no response'), wire.method, limits.shownUrl(), limits.timeoutMs));
        return;
      }
      resolve({
        status: response.statusCode,
        headers: response.headers as Record<string, string | string[]>,
        bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
        url: response.url,
      });
    });
  });
}

/** As got's request timeout said it: the same code, errno and words. */
function timedOut(method: string, limits: AttemptLimits): TransportError {
  return toTransportError({ name: 'TimeoutError', code: 'ETIMEDOUT', message: `Timeout awaiting 'request' for ${limits.timeoutMs}ms` }, method, limits.shownUrl(), limits.timeoutMs);
}

function tooLarge(method: string, limits: AttemptLimits): TransportError {
  const mib = limits.maxResponseBytes / 1048576;
  const shown = Number.isInteger(mib) ? String(mib) : String(Number(mib.toPrecision(3)));
  return new TransportError('RESPONSE_TOO_LARGE', `response body exceeds the ${shown} MiB limit`, { method, url: limits.shownUrl() });
}
