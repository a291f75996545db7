/** The loopback redirect listener of a native-app authorization code login (RFC 8252 §7.3). */

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { printableLine } from '../../output/printable.js';
import { AuthError, OAuthError } from '../errors.js';

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`: the port is chosen by the OS. */
  redirectUri: string;
  /** The authorization code, once the browser comes back with the right `state`. */
  code: Promise<string>;
  /** Stops listening (idempotent). */
  close(): Promise<void>;
}

export interface RedirectOptions {
  /** The `state` sent in the authorization request; a callback with any other value is ignored. */
  state: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

const PATH = '/callback';

/**
 * Listens on 127.0.0.1 (never all interfaces) until the redirect with the right `state` arrives;
 * requests to other paths, and callbacks with a wrong or no state or without a code, get a short
 * page and the wait goes on. `code` rejects with OAuthError for an `error` callback carrying the
 * right state, and AuthError for a timeout or an abort.
 */
export async function listenForRedirect(options: RedirectOptions): Promise<LoopbackRedirect> {
  let settle: { resolve(code: string): void; reject(error: unknown): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== PATH) return page(res, 404, 'Not found.');
    const params = url.searchParams;
    // Anything on 127.0.0.1 can call this port (another tab, a stale link, a forged request): a
    // callback without our state is answered and ignored, so it can neither end nor hijack the login.
    if (params.get('state') !== options.state) return page(res, 400, 'This link does not belong to the running login. Return to the terminal.');
    const error = params.get('error');
    if (error !== null) {
      page(res, 400, 'Login was not completed. Return to the terminal.');
      const description = params.get('error_description');
      return finish(new OAuthError(printable(error), `the authorization server answered ${printable(error)}${description ? `: ${printable(description)}` : ''}`));
    }
    const received = params.get('code');
    if (received === null || received === '') return page(res, 400, 'The redirect has no authorization code.');
    page(res, 200, 'Logged in. You can close this tab and return to the terminal.');
    finish(received);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(() => {
    finish(new AuthError('LOGIN_TIMEOUT', `no browser came back to http://127.0.0.1:${port}${PATH} within ${waitText(options.timeoutMs)}`, 'Run tool auth login again and complete the login in the browser.'));
  }, options.timeoutMs);
  const onAbort = (): void => finish(new AuthError('LOGIN_ABORTED', 'login interrupted'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  function finish(outcome: string | Error): void {
    if (settle === undefined) return;
    const { resolve, reject } = settle;
    settle = undefined;
    if (typeof outcome === 'string') resolve(outcome);
    else reject(outcome);
    void close();
  }
  if (options.signal?.aborted) onAbort();
  return { redirectUri: `http://127.0.0.1:${port}${PATH}`, code, close };
}

function page(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  res.end(`<!doctype html><meta charset="utf-8"><title>tool</title><p>${text}</p>\n`);
}

// The query string comes from whoever opened the URL: keep terminal escapes out of the message.
function printable(text: string): string {
  return printableLine(text, {}, 200);
}

/** A wait in words: "5 min", "90 s", "0.2 s". */
export function waitText(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}
