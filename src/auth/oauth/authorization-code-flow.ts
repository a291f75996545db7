/** The authorization code login with PKCE for a native app (RFC 6749 §4.1, RFC 7636, RFC 8252). */

import type { Writable } from 'node:stream';
import type { OAuth2Config } from '../../config/api-entry.js';
import type { Pipeline } from '../../http/create-pipeline.js';
import { listenForRedirect, waitText } from './loopback-redirect.js';
import { createPkcePair, createState } from './pkce.js';
import { requestToken, type TokenGrant } from './token-grant.js';

/** How long the loopback listener waits for the browser. */
export const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;

export interface AuthorizationCodeOptions {
  auth: Extract<OAuth2Config, { type: 'oauth2-authorization-code' }>;
  pipeline: Pipeline;
  /** Where the URL and progress are printed. */
  stderr: Writable;
  /** Opens the URL in a browser; returns false when it could not. Absent: only print the URL. */
  openBrowser?: (url: string) => boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Runs the login: prints the authorization URL, waits for the redirect on 127.0.0.1, checks
 * `state`, and exchanges the code with the PKCE verifier. Throws AuthError/OAuthError on refusal,
 * timeout or interruption.
 */
export async function authorizationCodeLogin(options: AuthorizationCodeOptions): Promise<TokenGrant> {
  const { auth } = options;
  const pkce = createPkcePair();
  const state = createState();
  const timeoutMs = options.timeoutMs ?? AUTHORIZATION_TIMEOUT_MS;
  const redirect = await listenForRedirect({ state, timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
  try {
    const url = new URL(auth.authorizeUrl);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: auth.clientId,
      redirect_uri: redirect.redirectUri,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    };
    if (auth.scopes.length > 0) params.scope = auth.scopes.join(' ');
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const opened = options.openBrowser?.(url.href) === true;
    options.stderr.write(
      `${opened ? 'A browser window was opened. If it did not appear, open' : 'Open'} this URL to log in:\n  ${url.href}\n` +
        `Waiting for the browser to come back to ${redirect.redirectUri} (up to ${waitText(timeoutMs)})...\n`,
    );
    const code = await redirect.code;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirect.redirectUri, code_verifier: pkce.verifier };
    return await requestToken(options.pipeline, auth.tokenUrl, exchange, { clientId: auth.clientId }, options.signal);
  } finally {
    await redirect.close();
  }
}
