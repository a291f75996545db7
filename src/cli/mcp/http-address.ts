/**
 * `--http [host:]port` and `--http-host`: where the Streamable HTTP server listens. Loopback
 * (127.0.0.1) unless a host is given; a host that is not a loopback address must also be named by
 * `--http-host`, so that serving the registry's APIs to the network is never an accident.
 */
import { isIP } from 'node:net';
import { CommandUsageError } from '../../errors/tool-error.js';

export interface HttpAddress {
  host: string;
  port: number;
}

/** Whether `host` is a loopback name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The address `--http` (and `--http-host`) name. Throws CommandUsageError for a malformed value or a non-loopback host without --http-host. */
export function parseHttpAddress(http: string, httpHost: string | undefined): HttpAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(http.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new CommandUsageError(`--http ${JSON.stringify(http)} is not a port or host:port`, 'Write --http 8765 or --http 127.0.0.1:8765 (0 for any free port).');
  const host = (match[1] ?? httpHost ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  if (httpHost !== undefined && match[1] !== undefined && httpHost.replace(/^\[|\]$/g, '') !== host) {
    throw new CommandUsageError(`--http names host ${match[1]} and --http-host names ${httpHost}`, 'Name the host once: --http <port> --http-host <host>.');
  }
  if (!isLoopback(host) && httpHost === undefined) {
    throw new CommandUsageError(`--http ${http}: ${host} is not a loopback address; the server listens on loopback only unless --http-host names the host`, `Listen on 127.0.0.1 (--http ${port}), or pass --http-host ${host} to accept connections from the network (every client still needs the bearer token).`);
  }
  return { host, port };
}
