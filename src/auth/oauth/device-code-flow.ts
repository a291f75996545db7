/** The device authorization grant (RFC 8628): a code to enter on another device, then polling. */

import type { Writable } from 'node:stream';
import { EXIT } from '../../cli/errors.js';
import type { OAuth2Config } from '../../config/api-entry.js';
import type { Pipeline } from '../../http/create-pipeline.js';
import { pause } from '../../http/abortable.js';
import { AuthError, OAuthError } from '../errors.js';
import { postForm, shownEndpoint } from './post-form.js';
import { requestToken, type TokenGrant } from './token-grant.js';

const DEFAULT_INTERVAL_S = 5;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the polling interval. */
const SLOW_DOWN_S = 5;
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
 * honouring `interval` and `slow_down` until approval. Throws AuthError for access_denied,
 * expired_token (or the local deadline) and interruption, OAuthError for other refusals.
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
  options.stderr.write(
    `To log in, open ${verificationUri} and enter the code: ${userCode}\n` +
      (complete !== undefined ? `  (or open ${complete})\n` : '') +
      'Waiting for approval...\n',
  );
  const expiresIn = seconds(answer.expires_in);
  const deadline = expiresIn === undefined ? undefined : now() + expiresIn * 1000;
  let intervalS = seconds(answer.interval) ?? DEFAULT_INTERVAL_S;
  for (;;) {
    if (!(await sleep(intervalS * 1000, signal))) throw new AuthError('LOGIN_ABORTED', 'login interrupted', EXIT.INTERRUPTED);
    if (deadline !== undefined && now() >= deadline) throw expired();
    try {
      return await requestToken(pipeline, auth.tokenUrl, { grant_type: DEVICE_GRANT, device_code: deviceCode }, { clientId: auth.clientId }, signal);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.oauthError === 'authorization_pending') continue;
      if (error.oauthError === 'slow_down') {
        intervalS += SLOW_DOWN_S;
        continue;
      }
      if (error.oauthError === 'access_denied') throw new AuthError('ACCESS_DENIED', 'the login was denied on the verification page', EXIT.RUN_FAILED);
      if (error.oauthError === 'expired_token') throw expired();
      throw error;
    }
  }
}

function expired(): AuthError {
  return new AuthError('DEVICE_CODE_EXPIRED', 'the device code expired before the login was approved', EXIT.RUN_FAILED, 'Run tool auth login again and enter the new code sooner.');
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function seconds(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}
