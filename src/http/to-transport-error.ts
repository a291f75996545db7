/** Translating got's and Node's errors into TransportError without leaking their internals. */

import { printableLine } from '../output/printable.js';
import { TransportError, type TransportErrorCode } from './transport-error.js';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
}

/** A TransportError for a failed attempt; `url` must already be redacted. */
export function toTransportError(error: unknown, method: string, url: string, timeoutMs: number): TransportError {
  if (error instanceof TransportError) return error;
  const { name, code, message } = (error ?? {}) as ErrorLike;
  const errno = typeof code === 'string' ? code : undefined;
  const [kind, what] = classify(name, errno, typeof message === 'string' ? message : '', timeoutMs);
  return new TransportError(kind, what, { method, url, errno });
}

function classify(name: unknown, errno: string | undefined, message: string, timeoutMs: number): [TransportErrorCode, string] {
  // got's own timer; an OS-level ETIMEDOUT is a connect timeout the kernel gave up on.
  if (name === 'TimeoutError') return ['TIMEOUT', `timed out after ${timeoutMs / 1000} s`];
  if (errno === undefined) return ['TRANSPORT_ERROR', `transport error (${firstLine(message)})`];
  if (errno === 'ECONNREFUSED') return ['CONNECTION_REFUSED', 'connection refused'];
  if (errno === 'ETIMEDOUT') return ['TIMEOUT', 'connection timed out'];
  if (DNS_CODES.has(errno)) return ['DNS_FAILURE', errno === 'EAI_AGAIN' ? 'DNS lookup failed (temporary)' : 'host not found'];
  if (RESET_CODES.has(errno)) return ['CONNECTION_RESET', 'connection reset'];
  if (isTlsCode(errno)) return ['TLS_FAILURE', `TLS failure (${errno})`];
  if (errno === 'ERR_TOO_MANY_REDIRECTS') return ['TRANSPORT_ERROR', 'too many redirects'];
  if (errno === 'ERR_INVALID_URL') return ['TRANSPORT_ERROR', 'invalid URL'];
  if (errno === 'ERR_UNSUPPORTED_PROTOCOL') return ['TRANSPORT_ERROR', 'unsupported protocol (use http or https)'];
  return ['TRANSPORT_ERROR', `transport error (${errno}: ${firstLine(message)})`];
}

function isTlsCode(code: string): boolean {
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code === 'EPROTO';
}

// Node's messages can quote the server (a certificate's names, a bad header): one line, no escapes (printable.ts).
function firstLine(message: string): string {
  return printableLine(message.split('\n', 1)[0] ?? '', {}, 200);
}
