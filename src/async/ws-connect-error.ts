/** Why a WebSocket connection failed, in one line that names `host:port` (never the credentials). */

import { printableLine } from '../output/printable.js';
import { AsyncConnectError } from './async-errors.js';

interface ConnectContext {
  address: string;
  timeoutMs: number;
}

/** The AsyncConnectError for what `ws` reported: an error, `{ status }` for an HTTP answer instead of an upgrade, or `'closed'`. */
export function wsConnectError(failure: unknown, context: ConnectContext): AsyncConnectError {
  const { address, timeoutMs } = context;
  const error = (failure ?? {}) as { code?: unknown; message?: unknown; status?: unknown };
  if (typeof error.status === 'number') {
    const auth = error.status === 401 || error.status === 403;
    return new AsyncConnectError(address, `the server answered HTTP ${error.status} instead of opening a WebSocket`, auth ? 'check the credentials given for this server' : undefined);
  }
  if (error.code === 'ECONNREFUSED') return new AsyncConnectError(address, 'connection refused', 'is the server running and listening on that port?');
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return new AsyncConnectError(address, 'host not found');
  if (error.code === 'ECONNRESET') return new AsyncConnectError(address, 'connection reset by the server');
  const message = typeof error.message === 'string' ? error.message : String(failure);
  if (/handshake has timed out/i.test(message)) return new AsyncConnectError(address, `no answer within ${timeoutMs} ms`);
  if (failure === 'closed') return new AsyncConnectError(address, 'the server closed the connection before it opened');
  return new AsyncConnectError(address, printableLine(message.split('\n')[0] ?? '', {}, 200));
}
