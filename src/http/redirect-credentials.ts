/** Keeping credentials on their own origin when got follows a redirect. */

import type { BeforeRedirectHook } from 'got';

/** What the redirect hook needs to know about the request being followed (got's `context` option). */
export interface RedirectContext {
  /** The only origin allowed to see credentials: the auth hook's, else the request's own. */
  allowedOrigin?: string;
  /** The request URL, used when there is no auth hook (origin computed only if a redirect happens). */
  requestUrl: string;
  /** Lower-cased header names to drop on a cross-origin redirect: the secret names and every header the auth chain set (registry headers included). */
  secrets: ReadonlySet<string>;
  /** Query parameter names the auth chain added (an API key in the query); removed from a cross-origin redirect's URL. */
  credentialQuery?: ReadonlySet<string>;
}

/**
 * got only compares hostname and port (so https -> http on the same host keeps Authorization)
 * and knows nothing of API-key headers or registry headers; this hook drops every header the
 * credentials chain set, and its query parameters, whenever the next URL's origin is not the one
 * the credentials belong to.
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
  const query = context.credentialQuery;
  if (query !== undefined && query.size > 0 && next !== undefined) {
    const url = new URL(String(next));
    const kept = withoutQueryNames(url.search, query);
    if (kept !== url.search) {
      url.search = kept;
      options.url = url;
    }
  }
};

/** `?a=1&key=s` without the pairs whose decoded name is in `names`; other pairs kept byte for byte. */
function withoutQueryNames(search: string, names: ReadonlySet<string>): string {
  if (search === '') return search;
  const pairs = search.slice(1).split('&');
  const kept = pairs.filter((pair) => !names.has(decodeName(pair.split('=', 1)[0] ?? '')));
  if (kept.length === pairs.length) return search;
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
