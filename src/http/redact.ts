/** Hiding secrets in what the pipeline shows: dry-run output, traces and error messages. */

import { parseBody, splitContentType } from './parse-body.js';
import type { HttpRequest } from './types.js';

/** Header and query names whose values are always secret, whatever the auth scheme says. */
const ALWAYS_SECRET: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'api_key',
  'apikey',
  'access_token',
]);

export const MASK = '***';

export interface RedactedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Lower-cased names whose values must be masked: the fixed list plus the auth hook's own. */
export function secretNames(auth: HttpRequest['auth']): ReadonlySet<string> {
  if (auth === undefined) return ALWAYS_SECRET;
  const names = new Set(ALWAYS_SECRET);
  for (const name of auth.secretNames()) names.add(name.toLowerCase());
  return names;
}

/** A copy of the request safe to print: secret headers, query values and URL passwords shown as `***`; never throws. */
export function redactRequest(req: HttpRequest): RedactedRequest {
  const secrets = secretNames(req.auth);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = secrets.has(name.toLowerCase()) ? MASK : value;
  }
  const redacted: RedactedRequest = { method: req.method, url: redactUrl(req.url, secrets), headers };
  if (req.body !== undefined) redacted.body = redactBody(req.body, secrets);
  return redacted;
}

/** The URL with secret query values and any password masked; the rest of it kept byte for byte. */
export function redactUrl(url: string, secrets: ReadonlySet<string>): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const base = maskPassword(queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt));
  if (queryAt === -1) return base;
  return `${base}?${redactPairs(withoutHash.slice(queryAt + 1), secrets)}`;
}

/** `a=1&key=s` with the values of secret names masked (query strings and form bodies). */
function redactPairs(pairs: string, secrets: ReadonlySet<string>): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      return secrets.has(decodeName(rawName).toLowerCase()) ? `${rawName}=${MASK}` : pair;
    })
    .join('&');
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function maskPassword(urlWithoutQuery: string): string {
  return urlWithoutQuery.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, `$1:${MASK}@`);
}

function redactBody(body: NonNullable<HttpRequest['body']>, secrets: ReadonlySet<string>): unknown {
  if (body.kind === 'multipart') {
    return body.parts.map((part) => ({
      name: part.name,
      value: typeof part.value === 'string' ? part.value : `<${part.value.length} bytes>`,
    }));
  }
  const bytes = typeof body.data === 'string' ? Buffer.from(body.data) : body.data;
  const parsed = parseBody(body.contentType, bytes);
  if (Buffer.isBuffer(parsed)) return `<${parsed.length} bytes>`;
  if (typeof parsed === 'string' && splitContentType(body.contentType).mime === 'application/x-www-form-urlencoded') {
    return redactPairs(parsed, secrets);
  }
  return parsed ?? '';
}
