/** What a dry run shows of the bound API's credentials: where they would go, as `***`. */

import type { HttpRequest } from './types.js';

/**
 * The request as the auth hook would send it, with `***` for the credentials; unchanged without a
 * hook, or when the request goes to another origin (credentials never do). Reads no secret.
 */
export function withMaskedCredentials(req: HttpRequest): HttpRequest {
  const auth = req.auth;
  if (auth?.applyMasked === undefined) return req;
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return req;
  }
  if (url.origin !== auth.origin) return req;
  const headers = { ...req.headers };
  const before = url.search;
  auth.applyMasked({ headers, url });
  // The URL is re-serialised only when the query changed, so the rest of it stays as built.
  return { ...req, headers, url: url.search === before ? req.url : url.href };
}
