/** One auth scheme as the hook composes it: what it adds to a request and what it hides. */

export interface Scheme {
  /** For banners and `tool auth status`; never the secret. */
  description: string;
  /** Lower-cased header and query names whose values are secret. */
  secretNames: string[];
  /** Whether a 401 should refresh credentials and resend once. */
  refreshOn401: boolean;
  /** Adds the credentials; `retryAfter401` asks for fresh ones. */
  apply(req: { headers: Record<string, string>; url: URL }, ctx: { retryAfter401: boolean }): Promise<void>;
}
