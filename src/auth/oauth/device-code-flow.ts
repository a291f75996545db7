/** The device authorization grant (RFC 8628): a code to enter on another device, then polling. */

import type { Writable } from 'node:stream';
import type { OAuth2Config } from '../../config/api-entry.js';
import type { Pipeline } from '../../http/create-pipeline.js';
import { pause } from '../../http/abortable.js';
import { printableLine } from '../../output/printable.js';
import { AuthError, OAuthError } from '../errors.js';
import { pollingLifetimeS, pollIntervalS, slowedDownS } from './device-code-timing.js';
import { waitText } from './loopback-redirect.js';
import { postForm, shownEndpoint } from './post-form.js';
import { requestToken, type TokenGrant } from './token-grant.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceCodeOptions {
  auth: Extract<OAuth2Config, { type: 'oauth2-device-code' }>;
  pipeline: Pipeline;
  stderr: Writable;
  signal?: AbortSignal;
  /** Waits `ms`; resolves false when interrupted (tests make it instant). */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
  now?: () => number;
}

/**
 * Runs the login: requests a device code, prints where to enter it, and polls the token endpoint
 * honouring `interval` and `slow_down` (within the limits of device-code-timing.ts) until approval.
 * Throws AuthError for access_denied, expired_token (or the local deadline: `expires_in`, at most
 * 30 min, else 15 min), interruption and an unreachable endpoint, OAuthError for other refusals.
 */
export async function deviceCodeLogin(options: DeviceCodeOptions): Promise<TokenGrant> {
  const { auth, pipeline, signal } = options;
  const sleep = options.sleep ?? pause;
  const now = options.now ?? Date.now;
  const request: Record<string, string> = {};
  if (auth.scopes.length > 0) request.scope = auth.scopes.join(' ');
  const answer = await postForm(pipeline, auth.deviceUrl, request, { clientId: auth.clientId }, signal);
  const deviceCode = text(answer.device_code);
  const userCode = text(answer.user_code);
  // verification_url is the pre-RFC spelling some providers still send.
  const verificationUri = text(answer.verification_uri) ?? text(answer.verification_url);
  if (deviceCode === undefined || userCode === undefined || verificationUri === undefined) {
    throw new AuthError('OAUTH_BAD_RESPONSE', `${shownEndpoint(auth.deviceUrl)} answered without device_code, user_code and verification_uri`);
  }
  const complete = text(answer.verification_uri_complete);
  // Whatever the server sent goes to a terminal: no escape sequences, one line each (printable.ts).
  options.stderr.write(
    `To log in, open ${printableLine(verificationUri, {}, 500)} and enter the code: ${printableLine(userCode, {}, 100)}\n` +
      (complete !== undefined ? `  (or open ${printableLine(complete, {}, 500)})\n` : '') +
      'Waiting for approval...\n',
  );
  const expiresIn = seconds(answer.expires_in);
  const lifetimeS = pollingLifetimeS(expiresIn);
  const deadline = now() + lifetimeS * 1000;
  const pastDeadline = (): AuthError => (expiresIn === undefined ? unapproved(lifetimeS) : expired());
  let intervalS = pollIntervalS(seconds(answer.interval));
  for (;;) {
    // Never sleep past the deadline: an expired code is reported when it expires, not a minute later.
    const waitMs = Math.min(intervalS * 1000, Math.max(deadline - now(), 0));
    if (!(await sleep(waitMs, signal))) throw new AuthError('LOGIN_ABORTED', 'login interrupted');
    if (now() >= deadline) throw pastDeadline();
    try {
      return await requestToken(pipeline, auth.tokenUrl, { grant_type: DEVICE_GRANT, device_code: deviceCode }, { clientId: auth.clientId }, signal);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.oauthError === 'authorization_pending') continue;
      if (error.oauthError === 'slow_down') {
        intervalS = slowedDownS(intervalS);
        continue;
      }
      if (error.oauthError === 'access_denied') throw new AuthError('ACCESS_DENIED', 'the login was denied on the verification page');
      if (error.oauthError === 'expired_token') throw expired();
      throw error;
    }
  }
}

function expired(): AuthError {
  return new AuthError('DEVICE_CODE_EXPIRED', 'the device code expired before the login was approved', 'Run tool auth login again and enter the new code sooner.');
}

function unapproved(lifetimeS: number): AuthError {
  return new AuthError('DEVICE_CODE_EXPIRED', `the login was not approved within ${waitText(lifetimeS * 1000)}`, 'Run tool auth login again and enter the new code sooner.');
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function seconds(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}
