/**
 * Keeps description `$ref` fetches off non-public addresses (loopback, private, link-local, …):
 * checked before a fetch, and again for every address a connection actually uses, so a name that
 * resolves differently the second time (DNS rebinding) or a redirect cannot get past it.
 */

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLocalName, nonPublicKind } from '../openapi/address-class.js';

/** The code of the error a guarded connection fails with; the pipeline keeps it as TransportError.errno. */
export const ADDRESS_REFUSED = 'ERR_REF_ADDRESS_REFUSED';

/** Thrown (through the connection) when a `$ref` fetch would connect to a non-public address. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  readonly code = ADDRESS_REFUSED;
}

export interface RefAddressGuard {
  /** Trusts the origin of a source description the document names: `$ref`s to it may reach it whatever its address. */
  trustOrigin(url: string): void;
  /** Why a `$ref` to `url` may not be fetched (its host is, or resolves to, a non-public address the user did not allow), or undefined. */
  refusal(url: string): Promise<string | undefined>;
  /** Agents for the `$ref` pipeline: each connection re-checks the addresses it resolves (redirects included). */
  agents: { http: HttpAgent; https: HttpsAgent };
  /** The reason behind `error` when a guarded connection refused an address, else undefined. */
  reasonOf(error: unknown): string | undefined;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * A guard allowing the hosts in `allowRefHosts` (`host` or `host:port`, as --tool-allow-ref-host
 * takes them) and trusted origins, whatever their addresses. `lookup` resolves names (dns.lookup
 * by default; tests pass their own). Never throws.
 */
export function createRefAddressGuard(allowRefHosts: readonly string[], lookup: LookupFunction = dnsLookup as LookupFunction): RefAddressGuard {
  const allowed = new Set(allowRefHosts.map(normalisedHost).filter((host) => host !== undefined));
  const checked = new Map<string, Promise<string | undefined>>();
  let lastRefusal: string | undefined;

  const isAllowed = (hostname: string, port: string): boolean => allowed.has(hostname) || allowed.has(`${hostname}:${port}`);

  /** Why connecting to `hostname` (already lower case, IPv6 in brackets) is refused, given its resolved `addresses`. */
  const judge = (hostname: string, addresses: readonly string[]): string | undefined => {
    for (const address of addresses) {
      const kind = nonPublicKind(address);
      if (kind === undefined) continue;
      const what = isIP(unbracketed(hostname)) !== 0 ? `${hostname} is ${kind}` : `${hostname} resolves to ${address}, ${kind}`;
      return refusalText(what, hostname);
    }
    return undefined;
  };

  /** A lookup that fails with AddressRefusedError when any address `hostname` resolves to is not public. */
  const guardedLookup =
    (hostname: string): LookupFunction =>
    (name, options, callback) => {
      lookup(name, options, (error, address, family) => {
        if (error) return callback(error, address, family);
        const addresses = Array.isArray(address) ? address.map((entry: LookupAddress) => entry.address) : [address];
        const reason = judge(hostname, addresses);
        if (reason === undefined) return callback(null, address, family);
        lastRefusal = reason;
        callback(new AddressRefusedError(reason), address, family);
      });
    };

  /** The socket for a connection, or the refusal passed to `callback` when its host is not allowed. */
  const connect = (
    options: ClientRequestArgs,
    callback: ((error: Error | null, stream: Duplex) => void) | undefined,
    create: (options: ClientRequestArgs) => Duplex | null | undefined,
  ): Duplex | null | undefined => {
    const host = unbracketed(String(options.host ?? options.hostname ?? 'localhost').toLowerCase());
    const hostname = isIP(host) === 6 ? `[${host}]` : host;
    if (isAllowed(hostname, String(options.port ?? ''))) return create(options);
    const reason = isIP(host) !== 0 ? judge(hostname, [host]) : isLocalName(host) ? refusalText(`${hostname} names this machine`, hostname) : undefined;
    if (reason !== undefined) {
      lastRefusal = reason;
      // Asynchronously, as a failed connection would be: the agent expects the callback after createConnection returns.
      queueMicrotask(() => callback?.(new AddressRefusedError(reason), undefined as unknown as Duplex));
      return undefined;
    }
    return create({ ...options, lookup: guardedLookup(hostname) });
  };

  // keepAlive is off: a description load fetches a few files, and nothing is left open afterwards.
  class GuardedHttpAgent extends HttpAgent {
    override createConnection(options: ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
      return connect(options, callback, (checked) => super.createConnection(checked, callback));
    }
  }
  class GuardedHttpsAgent extends HttpsAgent {
    override createConnection(options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
      return connect(options, callback, (checked) => super.createConnection(checked as RequestOptions, callback));
    }
  }

  return {
    trustOrigin(url) {
      const parsed = parseUrl(url);
      if (parsed !== undefined) allowed.add(`${parsed.hostname}:${parsed.port}`);
    },
    refusal(url) {
      const parsed = parseUrl(url);
      if (parsed === undefined || isAllowed(parsed.hostname, parsed.port)) return Promise.resolve(undefined);
      const { hostname } = parsed;
      let result = checked.get(hostname);
      if (result === undefined) {
        result = preflight(hostname);
        checked.set(hostname, result);
      }
      return result;
    },
    agents: { http: new GuardedHttpAgent({ keepAlive: false }), https: new GuardedHttpsAgent({ keepAlive: false }) },
    reasonOf(error) {
      const code = (error as { errno?: unknown; code?: unknown } | null)?.errno ?? (error as { code?: unknown } | null)?.code;
      return code === ADDRESS_REFUSED ? (lastRefusal ?? 'it would connect to an address that is not public') : undefined;
    },
  };

  /** The check before a fetch: an IP literal or a local name at once, any other name by resolving it (a failed lookup is left to the fetch). */
  function preflight(hostname: string): Promise<string | undefined> {
    const bare = unbracketed(hostname);
    if (isIP(bare) !== 0) return Promise.resolve(judge(hostname, [bare]));
    if (isLocalName(hostname)) return Promise.resolve(refusalText(`${hostname} names this machine`, hostname));
    return new Promise((resolve) => {
      lookup(hostname, { all: true }, (error, addresses) => {
        if (error || !Array.isArray(addresses)) return resolve(undefined);
        resolve(judge(hostname, addresses.map((entry) => entry.address)));
      });
    });
  }
}

function refusalText(what: string, hostname: string): string {
  return `${what}, and a description's $refs may only reach public addresses; pass --tool-allow-ref-host ${hostname} if you trust it`;
}

/** An http(s) URL's host as compared here (WHATWG-normalised: `2130706433` is 127.0.0.1), and its port with the default filled in. */
function parseUrl(url: string): { hostname: string; port: string } | undefined {
  try {
    const parsed = new URL(url);
    const port = parsed.port || DEFAULT_PORTS[parsed.protocol];
    return port === undefined ? undefined : { hostname: parsed.hostname.toLowerCase(), port };
  } catch {
    return undefined;
  }
}

/** A --tool-allow-ref-host value normalised as URLs are (`host` or `host:port`), or undefined. */
function normalisedHost(value: string): string | undefined {
  try {
    const parsed = new URL(`http://${value.trim()}`);
    const explicitPort = /:\d+$/.test(value.trim());
    return explicitPort ? `${parsed.hostname}:${parsed.port || '80'}` : parsed.hostname;
  } catch {
    return undefined;
  }
}

function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
