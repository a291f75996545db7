/** Errors of the auth layer: missing credentials, refused logins, OAuth 2.0 endpoint answers. */

import { ToolError } from '../errors/tool-error.js';

export type AuthErrorCode =
  | 'NOT_LOGGED_IN'
  | 'SECRET_ENV_MISSING'
  | 'LOGIN_EXPIRED'
  | 'OAUTH_ERROR'
  | 'OAUTH_BAD_RESPONSE'
  | 'OAUTH_UNREACHABLE'
  | 'LOGIN_TIMEOUT'
  | 'LOGIN_ABORTED'
  | 'ACCESS_DENIED'
  | 'DEVICE_CODE_EXPIRED';

/** Thrown when credentials are missing or a login fails. Messages never contain a secret. */
export class AuthError extends ToolError {
  declare readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, hint?: string) {
    super(code, message, hint);
    this.name = 'AuthError';
  }
}

/** Thrown when an OAuth 2.0 endpoint answers with an `error` (RFC 6749 §5.2, RFC 8628 §3.5). */
export class OAuthError extends AuthError {
  constructor(
    /** The server's `error` code, e.g. invalid_grant, authorization_pending, slow_down. */
    readonly oauthError: string,
    message: string,
    hint?: string,
  ) {
    super('OAUTH_ERROR', message, hint);
    this.name = 'OAuthError';
  }
}
