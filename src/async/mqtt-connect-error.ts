/**
 * Why an MQTT connection failed, in one line that names `host:port` and says what to do. The
 * client library's message is not reused as is: it may carry a stack or, for some failures, the
 * URL; the password never appears because it is never part of what is formatted here.
 */

import { printableLine } from '../output/printable.js';
import { AsyncConnectError } from './async-errors.js';

interface ConnectContext {
  address: string;
  protocolVersion: 4 | 5;
  timeoutMs: number;
}

/** CONNACK reason codes (MQTT 5) and return codes (3.1.1) that mean the credentials were not accepted. */
const AUTH_CODES = new Set([4, 5, 134, 135]);
/** CONNACK codes that mean the broker does not speak this protocol version. */
const VERSION_CODES = new Set([1, 132]);

/** The AsyncConnectError for what mqtt.js reported: an error, `'closed'` for a close without one, or `'timeout'`. */
export function mqttConnectError(failure: unknown, context: ConnectContext): AsyncConnectError {
  const { address, protocolVersion, timeoutMs } = context;
  const error = (failure ?? {}) as { code?: unknown; message?: unknown };
  const code = error.code;
  if (code === 'ECONNREFUSED') return new AsyncConnectError(address, 'connection refused', 'is the broker running and listening on that port?');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new AsyncConnectError(address, 'host not found');
  if (code === 'ECONNRESET' || code === 'EPIPE') return new AsyncConnectError(address, 'connection reset by the broker');
  if (typeof code === 'number' && AUTH_CODES.has(code)) {
    return new AsyncConnectError(address, `the broker did not accept the user name or password (MQTT reason ${code})`, 'check the credentials given for this server');
  }
  if (typeof code === 'number' && VERSION_CODES.has(code)) return versionRefused(address, protocolVersion);
  if (typeof code === 'number') return new AsyncConnectError(address, `the broker refused the connection (MQTT reason ${code})`);
  if (failure === 'timeout') return new AsyncConnectError(address, `no answer within ${timeoutMs} ms`);
  if (failure === 'closed') {
    // A broker that does not speak MQTT 5 may answer in 3.1.1 and hang up; mqtt.js then reports only the close.
    if (protocolVersion === 5) return versionRefused(address, protocolVersion, 'the broker closed the connection before accepting it');
    return new AsyncConnectError(address, 'the broker closed the connection before accepting it');
  }
  const message = typeof error.message === 'string' ? error.message : String(failure);
  return new AsyncConnectError(address, printableLine(message.split('\n')[0] ?? '', {}, 200));
}

function versionRefused(address: string, version: 4 | 5, what = `the broker refused MQTT ${version === 5 ? '5' : '3.1.1'}`): AsyncConnectError {
  const hint = version === 5 ? 'the broker may speak MQTT 3.1.1 only: set the AsyncAPI server\'s protocolVersion to 3.1.1' : undefined;
  return new AsyncConnectError(address, what, hint);
}
