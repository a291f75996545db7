/** The token endpoint (RFC 6749 §3.2): exchanging a grant for an access token. */

import type { Pipeline } from '../../http/create-pipeline.js';
import { AuthError } from '../errors.js';
import { postForm, shownEndpoint, type OAuthClient } from './post-form.js';

/** A successful token response, in our names. */
export interface TokenGrant {
  accessToken: string;
  /** Lifetime in seconds from the response (`expires_in`), when the server gave one. */
  expiresIn?: number;
  refreshToken?: string;
  scope?: string;
}

/**
 * Requests a token with the given grant parameters (grant_type and its fields). Throws OAuthError
 * for an error answer (invalid_grant, authorization_pending, ...) and AuthError when the answer
 * has no access_token.
 */
export async function requestToken(
  pipeline: Pipeline,
  tokenUrl: string,
  params: Record<string, string>,
  client: OAuthClient,
  signal?: AbortSignal,
): Promise<TokenGrant> {
  const answer = await postForm(pipeline, tokenUrl, params, client, signal);
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new AuthError('OAUTH_BAD_RESPONSE', `${shownEndpoint(tokenUrl)} answered without an access_token`);
  }
  const grant: TokenGrant = { accessToken: answer.access_token };
  const expiresIn = seconds(answer.expires_in);
  if (expiresIn !== undefined) grant.expiresIn = expiresIn;
  if (typeof answer.refresh_token === 'string' && answer.refresh_token !== '') grant.refreshToken = answer.refresh_token;
  if (typeof answer.scope === 'string') grant.scope = answer.scope;
  return grant;
}

// expires_in is a number per RFC 6749, but some servers send it as a string.
function seconds(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}
