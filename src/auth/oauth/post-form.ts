/** A form-encoded POST to an OAuth 2.0 endpoint through the request pipeline. */

import type { Pipeline } from '../../http/create-pipeline.js';
import { printableLine } from '../../output/printable.js';
import { isSecretName } from '../../output/redact.js';
import { TransportError } from '../../http/transport-error.js';
import type { HttpResponse } from '../../http/types.js';
import { AuthError, OAuthError } from '../errors.js';

export interface OAuthClient {
  clientId: string;
  /** A confidential client's secret, sent with HTTP Basic (RFC 6749 §2.3.1); public clients send client_id in the body. */
  clientSecret?: string;
}

/**
 * POSTs `params` (application/x-www-form-urlencoded) and returns the JSON object of a 2xx answer.
 * Throws OAuthError when the server answers with an `error` field, AuthError (OAUTH_BAD_RESPONSE)
 * for any other failure, and also when no answer came (OAUTH_UNREACHABLE; LOGIN_ABORTED when `signal`
 * fires). Messages never include the params.
 */
export async function postForm(
  pipeline: Pipeline,
  endpoint: string,
  params: Record<string, string>,
  client: OAuthClient,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const body = new URLSearchParams(params);
  if (client.clientSecret !== undefined) {
    // RFC 6749 §2.3.1: id and secret are form-encoded before they are joined and base64-encoded.
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  } else {
    body.set('client_id', client.clientId);
  }
  let response: HttpResponse;
  try {
    response = await pipeline.send(
      { method: 'POST', url: endpoint, headers, body: { kind: 'bytes', contentType: 'application/x-www-form-urlencoded', data: body.toString() } },
      signal === undefined ? undefined : { signal },
    );
  } catch (error) {
    throw error instanceof TransportError ? unreachable(error, endpoint) : error;
  }
  const answer = asObject(response.body);
  const where = shownEndpoint(endpoint);
  if (answer !== undefined && typeof answer.error === 'string') {
    // The server's words, which may echo what was sent (the client secret, a refresh token): printable.ts masks those.
    const known = { values: [...(client.clientSecret === undefined ? [] : [client.clientSecret]), ...Object.entries(params).filter(([name]) => name === 'code' || isSecretName(name)).map(([, value]) => value)] };
    const description = typeof answer.error_description === 'string' ? `: ${printableLine(answer.error_description, known, 200)}` : '';
    throw new OAuthError(answer.error, `${where} answered ${printableLine(answer.error, known, 100)}${description} (HTTP ${response.status})`);
  }
  if (response.status < 200 || response.status > 299 || answer === undefined) {
    throw new AuthError('OAUTH_BAD_RESPONSE', `${where} answered HTTP ${response.status} without a JSON object`, 'Check the endpoint URL given to tool auth login.');
  }
  return answer;
}

/** No answer from the endpoint (refused, timed out, no such host): an ordinary error naming it, not a bug. */
function unreachable(error: TransportError, endpoint: string): AuthError {
  if (error.code === 'ABORTED') return new AuthError('LOGIN_ABORTED', `interrupted while waiting for ${shownEndpoint(endpoint)}`);
  // The pipeline's message is "<what failed>: <METHOD> <url>"; the endpoint is named our way instead.
  const suffix = `: ${error.method} ${error.url}`;
  const what = error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
  return new AuthError(
    'OAUTH_UNREACHABLE',
    `could not reach the OAuth endpoint ${shownEndpoint(endpoint)}: ${what}`,
    'Check the endpoint URL and the network connection, then try again.',
  );
}

/** An endpoint as shown in messages: origin and path, never a query string. */
export function shownEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.origin}${url.pathname}`;
}

// Some servers (GitHub) answer form-encoded unless they honour Accept; both are understood.
function asObject(body: unknown): Record<string, unknown> | undefined {
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) return body as Record<string, unknown>;
  if (typeof body === 'string' && /^[\w.~%+-]+=/.test(body)) return Object.fromEntries(new URLSearchParams(body));
  return undefined;
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
