/**
 * Opening a transport by URL scheme: `mqtt:`/`mqtts:` to an MQTT broker, `ws:`/`wss:` to a
 * WebSocket server. Each protocol's package is imported only here, when one is opened.
 */

import { AsyncConnectError, ProtocolUnsupportedError, SUPPORTED_PROTOCOLS, type SupportedProtocol } from './async-errors.js';
import { DEFAULT_LIMITS, type Transport, type TransportLimits } from './transport.js';

/** How to connect. */
export interface ConnectOptions {
  username?: string;
  password?: string;
  signal?: AbortSignal;
  /** How long the connection may take; 10 s when absent. */
  timeoutMs?: number;
  /** MQTT only: 5 (the default) or 4 for MQTT 3.1.1 (see mqttProtocolVersion). */
  mqttVersion?: 4 | 5;
  limits?: Partial<TransportLimits>;
}

const DEFAULT_PORTS: Record<SupportedProtocol, number> = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 };

/**
 * A transport for `url`: an MQTT connection is open when this resolves; WebSocket connections open
 * per channel address on the first subscribe or publish, which then throw the connect errors.
 * Throws ProtocolUnsupportedError for another scheme,
 * AsyncConnectError when the server cannot be reached or refuses, AsyncAbortedError on abort.
 */
export async function connectTransport(url: string, options: ConnectOptions = {}): Promise<Transport> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AsyncConnectError(url.replace(/\/\/[^@/]*@/, '//'), 'not a valid URL');
  }
  const protocol = parsed.protocol.slice(0, -1).toLowerCase();
  if (!(SUPPORTED_PROTOCOLS as readonly string[]).includes(protocol)) throw new ProtocolUnsupportedError(protocol);
  const address = `${parsed.hostname}:${parsed.port || DEFAULT_PORTS[protocol as SupportedProtocol]}`;
  const common = {
    address,
    // Credentials in the URL count too, unless given apart.
    ...credentials(options, parsed),
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.signal !== undefined && { signal: options.signal }),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  };
  if (protocol === 'mqtt' || protocol === 'mqtts') {
    const { connectMqtt } = await import('./mqtt-transport.js');
    return connectMqtt(url, { ...common, protocolVersion: options.mqttVersion ?? 5 });
  }
  const { connectWs } = await import('./ws-transport.js');
  return connectWs(url, common);
}

function credentials(options: ConnectOptions, url: URL): { username?: string; password?: string } {
  const username = options.username ?? (url.username === '' ? undefined : decodeURIComponent(url.username));
  const password = options.password ?? (url.password === '' ? undefined : decodeURIComponent(url.password));
  return { ...(username !== undefined && { username }), ...(password !== undefined && { password }) };
}

/** The MQTT version for an AsyncAPI server's `protocolVersion`: 4 for `3.1.1`/`3.1`/`4`, else 5. */
export function mqttProtocolVersion(protocolVersion: string | undefined): 4 | 5 {
  return protocolVersion !== undefined && ['3.1.1', '3.1', '4'].includes(protocolVersion.trim()) ? 4 : 5;
}
