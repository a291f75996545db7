/** The request pipeline's data types: what every command hands to it and gets back. */

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';

/** A request body already encoded for the wire. */
export type HttpBody =
  | { kind: 'bytes'; contentType: string; data: Buffer | string }
  /** multipart/form-data: the pipeline picks the boundary. */
  | { kind: 'multipart'; parts: MultipartPart[] };

export interface MultipartPart {
  name: string;
  value: string | Buffer;
  contentType?: string;
  filename?: string;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Absolute http(s) URL, query string included. */
  url: string;
  /** Header names as given; the pipeline treats them case-insensitively. */
  headers: Record<string, string>;
  body?: HttpBody;
  /**
   * Hook that adds credentials (the bound API's auth chain). It is applied only when the
   * request's origin equals `auth.origin`, and never to a redirect to another origin.
   */
  auth?: AuthHook;
  /** false: a 3xx answer is the response (its operation declares one), not followed. Redirects are followed otherwise. */
  followRedirects?: false;
}

/** The seam where the API registry plugs an API's auth chain into the pipeline. */
export interface AuthHook {
  /** `scheme://host:port` that may receive the credentials. */
  origin: string;
  /** Describes the scheme for banners and dry-run output, never the secret. */
  describe(): string;
  /** Adds credentials to a request about to be sent; `retryAfter401` is set on the one resend after a 401. */
  apply(req: { headers: Record<string, string>; url: URL }, ctx: { retryAfter401: boolean }): Promise<void>;
  /**
   * What apply() would add, with `***` for the credentials: registry headers as they are, the
   * scheme's header or query parameter masked. Reads no secret and fetches no token (dry runs).
   */
  applyMasked?(req: { headers: Record<string, string>; url: URL }): void;
  /** Names of headers and query parameters whose values must be shown as `***`. */
  secretNames(): string[];
  /** The credential values applied so far (and registry header values with secret-like names), so that a server echoing them is shown `***`. */
  secretValues?(): string[];
  /** Whether a 401 should refresh credentials and resend once (OAuth2). */
  refreshOn401?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names. Repeated headers are joined with ", " (set-cookie kept as an array). */
  headers: Record<string, string | string[]>;
  /** Parsed by content type: JSON value, text as string, anything else as Buffer; undefined for no body. */
  body: unknown;
  /**
   * The body bytes exactly as received (content-encoding removed). Direct calls print these and the
   * description cache stores them, since re-serialising `body` would not give the server's text back.
   */
  bytes?: Buffer;
  /** The final URL after redirects. */
  url: string;
  /** Milliseconds from send to the full body, transport retries included. */
  durationMs: number;
  /** How many transport retries the pipeline made before this response. */
  retries: number;
  /** The headers of the last attempt as sent (lower-cased, credentials included): print them only through redact.ts. */
  requestHeaders?: Record<string, string>;
}

/** One transport retry about to happen: which, of how many allowed, why (a status or a TransportError code) and after how long. */
export interface TransportRetry {
  attempt: number;
  of: number;
  status?: number;
  code?: string;
  delayMs: number;
}

/** Per-request options of `Pipeline.send`. */
export interface SendOptions {
  signal?: AbortSignal;
  /** Called before each transport retry's wait (progress lines); must not throw. */
  onRetry?: (retry: TransportRetry) => void;
}

/** Options every command shares. */
export interface PipelineOptions {
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs: number;
  /** Transport retries for connection errors and 408/429/500/502/503/504 (default 2). */
  retry: number;
  /** Also retry non-idempotent methods. */
  retryUnsafe: boolean;
  /** Maximum response body size in bytes (default 50 MiB). */
  maxResponseBytes: number;
  /** Cap on a single transport backoff sleep, ms (default 60 000). Tests lower it. */
  maxRetryDelayMs?: number;
  /** User-Agent header. */
  userAgent?: string;
  /**
   * Connection agents to use instead of the pipeline's keep-alive ones. Description `$ref`
   * fetches pass agents that check each address they connect to, redirects included.
   */
  agents?: { http: import('node:http').Agent; https: import('node:https').Agent };
}
