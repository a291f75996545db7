/** Keeping credentials on their own origin when got follows a redirect. */

import type { BeforeRedirectHook } from 'got';

/** What the redirect hook needs to know about the request being followed (got's `context` option). */
export interface RedirectContext {
  /** The only origin allowed to see credentials: the auth hook's, else the request's own. */
  allowedOrigin?: string;
  /** The request URL, used when there is no auth hook (origin computed only if a redirect happens). */
  requestUrl: string;
  /** Lower-cased header names to drop on a cross-origin redirect. */
  secrets: ReadonlySet<string>;
}

/**
 * got only compares hostname and port (so https -> http on the same host keeps Authorization)
 * and knows nothing of API-key headers; this hook drops every secret header whenever the next
 * URL's origin is not the one the credentials belong to.
 */
export const dropCredentialsOnCrossOrigin: BeforeRedirectHook = (options) => {
  const context = options.context as Partial<RedirectContext>;
  if (context.secrets === undefined || context.requestUrl === undefined) return;
  const allowed = context.allowedOrigin ?? originOf(context.requestUrl);
  const next = options.url;
  const nextOrigin = next instanceof URL ? next.origin : originOf(String(next));
  if (nextOrigin === allowed) return;
  const headers = options.headers;
  for (const name of Object.keys(headers)) {
    if (context.secrets.has(name.toLowerCase())) delete headers[name];
  }
};

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
