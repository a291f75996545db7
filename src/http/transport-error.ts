/** Errors the request pipeline rejects with when no HTTP response could be obtained. */

export type TransportErrorCode =
  | 'CONNECTION_REFUSED'
  | 'DNS_FAILURE'
  | 'CONNECTION_RESET'
  | 'TIMEOUT'
  | 'TLS_FAILURE'
  | 'RESPONSE_TOO_LARGE'
  | 'ABORTED'
  | 'TRANSPORT_ERROR';

export interface TransportErrorDetails {
  method: string;
  /** The request URL with secret query values already shown as `***`. */
  url: string;
  /** The underlying system error code (ECONNREFUSED, EAI_AGAIN, ...), when there is one. */
  errno?: string;
}

/** Thrown by `Pipeline.send` when the request got no HTTP response (connection, DNS, TLS, timeout, size cap, abort). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: TransportErrorCode;
  readonly method: string;
  readonly url: string;
  readonly errno: string | undefined;
  /** Transport retries made before giving up. */
  retries = 0;

  constructor(code: TransportErrorCode, what: string, details: TransportErrorDetails) {
    // One line, no stack and no secrets: the CLI prints `message` as is.
    super(`${what}: ${details.method} ${details.url}`);
    this.code = code;
    this.method = details.method;
    this.url = details.url;
    this.errno = details.errno;
  }
}
