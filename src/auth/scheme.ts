/** One auth scheme as the hook composes it: what it adds to a request and what it hides. */

import { MASK } from '../output/redact.js';

export interface Scheme {
  /** For banners and `tool auth status`; never the secret. */
  description: string;
  /** Lower-cased header and query names whose values are secret. */
  secretNames: string[];
  /** Whether a 401 should refresh credentials and resend once. */
  refreshOn401: boolean;
  /** Adds the credentials; `retryAfter401` asks for fresh ones. */
  apply(req: { headers: Record<string, string>; url: URL }, ctx: { retryAfter401: boolean }): Promise<void>;
  /** Puts `***` where apply() would put the credentials (dry runs); reads no secret, fetches no token. */
  placeholder(req: { headers: Record<string, string>; url: URL }): void;
}

/** Bearer, basic and OAuth2 put their credentials in one header. */
export function maskedAuthorization(req: { headers: Record<string, string> }): void {
  for (const name of Object.keys(req.headers)) if (name.toLowerCase() === 'authorization') delete req.headers[name];
  req.headers.Authorization = MASK;
}
