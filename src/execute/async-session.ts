/**
 * The run's connections to brokers and message servers (Arazzo 1.1 asynchronous steps): one
 * transport per broker URL, opened on first use with the bound API's credentials, and one
 * subscription per channel, opened before the workflow's first message step so that no reply is
 * lost; all closed when the run ends, however it ends.
 */
import { connectTransport, mqttProtocolVersion } from '../async/connect-transport.js';
import type { Subscription, Transport } from '../async/transport.js';
import type { AuthHook } from '../http/types.js';
import { urlOrigin } from '../config/validate-input.js';

export interface AsyncSession {
  /** The transport to `url` (connected once per run). */
  transport(url: string, auth: AuthHook | undefined, protocolVersion?: string): Promise<Transport>;
  /** The subscription to `channel` on `url` (subscribed once per run; messages buffered from then on). */
  subscription(url: string, auth: AuthHook | undefined, channel: string, protocolVersion?: string): Promise<Subscription>;
  /** Aborted when the session closes: waits for messages end with it. */
  readonly signal: AbortSignal;
  /** Closes every subscription and transport. */
  close(): Promise<void>;
}

/** A session; `connectTimeoutMs` bounds each connection. */
export function createAsyncSession(options: { connectTimeoutMs: number }): AsyncSession {
  const controller = new AbortController();
  const transports = new Map<string, Promise<Transport>>();
  const subscriptions = new Map<string, Promise<Subscription>>();
  const transport = (url: string, auth: AuthHook | undefined, protocolVersion?: string): Promise<Transport> => {
    let pending = transports.get(url);
    if (!pending) {
      pending = (async () => {
        const credentials = await brokerCredentials(auth, url);
        return connectTransport(url, { ...credentials, signal: controller.signal, timeoutMs: options.connectTimeoutMs, mqttVersion: mqttProtocolVersion(protocolVersion) });
      })();
      transports.set(url, pending);
      // A failed connection is not kept: the next step tries again (and fails with its own message).
      pending.catch(() => transports.delete(url));
    }
    return pending;
  };
  return {
    signal: controller.signal,
    transport,
    subscription(url, auth, channel, protocolVersion) {
      const key = `${url}\n${channel}`;
      let pending = subscriptions.get(key);
      if (!pending) {
        pending = transport(url, auth, protocolVersion).then((open) => open.subscribe(channel));
        subscriptions.set(key, pending);
        pending.catch(() => subscriptions.delete(key));
      }
      return pending;
    },
    async close() {
      controller.abort();
      for (const pending of subscriptions.values()) (await pending.catch(() => undefined))?.close();
      await Promise.allSettled([...transports.values()].map(async (pending) => (await pending.catch(() => undefined))?.close()));
    },
  };
}

/**
 * The user name and password a bound API's credentials give a broker: `tool auth login <api>
 * --type basic` gives both; a bearer token is the password (brokers that take a JWT). Read through
 * the API's auth chain, which sends credentials only to the API's own scheme://host:port; none for
 * an unbound source or another origin.
 */
export async function brokerCredentials(auth: AuthHook | undefined, url: string): Promise<{ username?: string; password?: string }> {
  if (auth === undefined) return {};
  const target = new URL(url);
  if (urlOrigin(target) !== auth.origin) return {};
  const request = { headers: {} as Record<string, string>, url: target };
  await auth.apply(request, { retryAfter401: false });
  const header = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  if (header === undefined) return {};
  const [scheme, value = ''] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon === -1 ? { username: decoded } : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return { password: value };
}
