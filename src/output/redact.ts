/**
 * Hiding secrets in everything tool shows: dry-run output, -v lines, banners, traces, error
 * messages and server text. Every masking in tool goes through this module; `printable.ts` adds
 * the terminal-safety layer (control characters) on top of `redactText`.
 */

import { parseBody, splitContentType } from './parse-body.js';
import { encodedForms } from './secret-forms.js';

/**
 * What redaction reads of a request: src/http's HttpRequest has this shape (output sits below
 * http, so the type is spelled out here rather than imported).
 */
export interface RedactableRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: { kind: 'bytes'; contentType: string; data: Buffer | string } | { kind: 'multipart'; parts: Array<{ name: string; value: string | Buffer; contentType?: string; filename?: string }> };
  /** The auth hook: the names and values of the credentials it applies. */
  auth?: { secretNames(): string[]; secretValues?(): string[] };
}

export const MASK = '***';

/** Header and query names whose values are credentials whatever the auth scheme says. */
const ALWAYS_SECRET: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'api_key', 'apikey', 'access_token']);
/** Names (compared without case, `-`, `_` and `.`) whose values are secret wherever they appear. */
const SECRET_EXACT: ReadonlySet<string> = new Set(['key', 'sig', 'pass', 'pwd', 'auth', 'session', 'sid', 'assertion', 'clientassertion', 'devicecode', 'codeverifier']);
/** Parts of names whose values are secret: `client_secret`, `X-Refresh-Token`, `PRIVATE-TOKEN`, `db_password`, `Set-Cookie`... */
const SECRET_PARTS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'authorization', 'cookie', 'credential', 'privatekey', 'sessionid', 'signature'];
/** Secret values shorter than this are not searched for in free text: masking every "ab" would garble the message. */
const MIN_VALUE_LENGTH = 4;
const NO_NAMES: ReadonlySet<string> = new Set();

/** What a printer knows to be secret beyond the names above: more names and literal values (credentials, --input-env values). */
export interface KnownSecrets {
  names?: ReadonlySet<string>;
  values?: Iterable<string>;
}

export interface RedactedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Whether the value of a header, query parameter, form field or JSON key of this name is secret. */
export function isSecretName(name: string, extra: ReadonlySet<string> = NO_NAMES): boolean {
  const lower = name.toLowerCase();
  if (extra.has(lower)) return true;
  const folded = lower.replace(/[-_. ]/g, '');
  return SECRET_EXACT.has(folded) || SECRET_PARTS.some((part) => folded.includes(part));
}

/**
 * Lower-cased header and query names that always carry a credential plus the auth hook's own. The
 * pipeline drops these on a cross-origin redirect; for printing, isSecretName adds the secret-like ones.
 */
export function secretNames(auth: RedactableRequest['auth']): ReadonlySet<string> {
  if (auth === undefined) return ALWAYS_SECRET;
  const names = new Set(ALWAYS_SECRET);
  for (const name of auth.secretNames()) names.add(name.toLowerCase());
  return names;
}

/**
 * The secret values a request carries: its auth hook's credentials (once applied), the values of
 * secret-named headers and query parameters, and their token parts (`Bearer X` gives X too).
 */
export function secretValuesOf(req: RedactableRequest, extra: Iterable<string> = []): string[] {
  const names = secretNames(req.auth);
  const values = [...extra, ...(req.auth?.secretValues?.() ?? [])];
  for (const [name, value] of Object.entries(req.headers)) if (isSecretName(name, names)) values.push(...credentialParts(value));
  for (const [name, value] of queryPairs(req.url)) if (isSecretName(name, names)) values.push(value);
  return values;
}

/** A credential as sent and the parts of it that could be echoed: `Bearer X` -> X; `Basic b64` -> b64 and the password; cookie values. */
export function credentialParts(value: string): string[] {
  const parts = [value];
  const scheme = /^(\w+)\s+(\S+)$/.exec(value.trim());
  if (scheme?.[2] !== undefined) {
    parts.push(scheme[2]);
    if (scheme[1]?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon !== -1) parts.push(decoded.slice(colon + 1));
    }
  }
  if (value.includes('=')) for (const pair of value.split(';')) parts.push(pair.slice(pair.indexOf('=') + 1).trim());
  return parts;
}

/** A copy of the request safe to print: secret headers, query values, form and JSON fields, URL passwords and `known` values shown as `***`; never throws. */
export function redactRequest(req: RedactableRequest, known: Iterable<string> = []): RedactedRequest {
  const names = secretNames(req.auth);
  const values = sortedValues(secretValuesOf(req, known));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = isSecretName(name, names) ? MASK : maskValues(value, values);
  }
  const redacted: RedactedRequest = { method: req.method, url: maskValues(redactUrl(req.url, names), values), headers };
  if (req.body !== undefined) redacted.body = maskDeep(redactBody(req.body, names), values);
  return redacted;
}

/** The URL with secret query values and any userinfo password (or a lone user token) masked; the rest kept byte for byte. */
export function redactUrl(url: string, names: ReadonlySet<string> = NO_NAMES): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const base = maskUserinfo(queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt));
  if (queryAt === -1) return base;
  return `${base}?${redactPairs(withoutHash.slice(queryAt + 1), names)}`;
}

/** Headers with the values of secret names as `***` (registry headers, response headers). */
export function redactHeaders<T extends string | string[]>(headers: Record<string, T>, names: ReadonlySet<string> = NO_NAMES): Record<string, T | string> {
  const shown: Record<string, T | string> = {};
  for (const [name, value] of Object.entries(headers)) shown[name] = isSecretName(name, names) ? MASK : value;
  return shown;
}

/**
 * Free text (a server's error, an exception message) with every known secret value, every URL
 * password, every `name=value`, `"name": "value"` or `Name: value` of a secret-like name, and
 * every `Bearer`/`Basic` credential replaced by `***`. Control characters are left to printable.ts.
 */
export function redactText(text: string, known: KnownSecrets = {}): string {
  const names = known.names ?? NO_NAMES;
  let out = maskValues(text, sortedValues(known.values ?? []));
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):([^/@\s]*)@/gi, (_, scheme: string, user: string) => `${scheme}${user}:${MASK}@`);
  out = out.replace(/\b(https?:\/\/)[^/@\s:]+@/gi, (all, scheme: string) => (all.endsWith(`${MASK}@`) ? all : `${scheme}${MASK}@`));
  out = out.replace(/\b(bearer|basic)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi, (all, word: string, space: string, value: string) =>
    looksLikeCredential(value) ? `${word}${space}${MASK}` : all,
  );
  out = out.replace(/"([^"\\]{1,64})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (all, name: string, colon: string) => (isSecretName(name, names) ? `"${name}"${colon}"${MASK}"` : all));
  out = out.replace(/([A-Za-z][\w.\-[\]]{0,63})=([^&\s"'<>,;]+)/g, (all, name: string) => (isSecretName(name, names) ? `${name}=${MASK}` : all));
  // Header-shaped names only (`PRIVATE-TOKEN: x`, `Cookie: x`): prose such as "invalid_token: the token expired" stays readable.
  out = out.replace(/(?<![\w-])([A-Za-z][\w-]{0,63})(:[ \t]*)((?:[Bb]earer|[Bb]asic)[ \t]+[^\s,;"'{}]+|[^\s,;"'{}]+)/g, (all, name: string, colon: string, value: string) =>
    isHeaderShaped(name) && isSecretName(name, names) && value !== MASK && !value.startsWith('//') ? `${name}${colon}${MASK}` : all,
  );
  return out;
}

function looksLikeCredential(value: string): boolean {
  return value.length >= 16 || /[\d+/=_.~-]/.test(value);
}

function isHeaderShaped(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.includes('-') || lower === 'authorization' || lower === 'cookie';
}

/** `a=1&key=s` with the values of secret names masked (query strings and form bodies). */
function redactPairs(pairs: string, names: ReadonlySet<string>): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && isSecretName(decodeName(rawName), names) ? `${rawName}=${MASK}` : pair;
    })
    .join('&');
}

function queryPairs(url: string): Array<[string, string]> {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return [];
  const hashAt = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hashAt === -1 ? undefined : hashAt);
  return query
    .split('&')
    .filter((pair) => pair.includes('='))
    .map((pair) => [decodeName(pair.slice(0, pair.indexOf('='))), decodeName(pair.slice(pair.indexOf('=') + 1))]);
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

// `user:pass@` keeps the user; a lone `token@` (as in https://ghp_x@github.com) is all secret.
function maskUserinfo(urlWithoutQuery: string): string {
  return urlWithoutQuery
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, `$1:${MASK}@`)
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@:]+@/i, `$1${MASK}@`);
}

function redactBody(body: NonNullable<RedactableRequest['body']>, names: ReadonlySet<string>): unknown {
  if (body.kind === 'multipart') {
    return body.parts.map((part) => ({
      name: part.name,
      value: isSecretName(part.name, names) ? MASK : typeof part.value === 'string' ? part.value : `<${part.value.length} bytes>`,
    }));
  }
  const bytes = typeof body.data === 'string' ? Buffer.from(body.data) : body.data;
  const parsed = parseBody(body.contentType, bytes);
  if (Buffer.isBuffer(parsed)) return `<${parsed.length} bytes>`;
  if (typeof parsed === 'string' && splitContentType(body.contentType).mime === 'application/x-www-form-urlencoded') {
    return redactPairs(parsed, names);
  }
  return maskFields(parsed, names) ?? '';
}

/** JSON with the values of secret-named keys masked, at any depth. */
function maskFields(value: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => maskFields(item, names));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretName(key, names) && item !== null && typeof item !== 'object' ? MASK : maskFields(item, names);
  return out;
}

/** Every string inside `value` with the known secret values masked. */
function maskDeep(value: unknown, values: readonly string[]): unknown {
  if (values.length === 0) return value;
  if (typeof value === 'string') return maskValues(value, values);
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, values));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskDeep(item, values)]));
}

/**
 * A function that shows every one of `values` (and each of its encoded forms) in a text as `***`,
 * and nothing else: for data such as the run record, where `name=value` shapes are kept as they are.
 */
export function valueMasker(values: Iterable<string>): (text: string) => string {
  const sorted = sortedValues(values);
  return (text) => maskValues(text, sorted);
}

/** Distinct values long enough to search for, with their encoded forms (secret-forms.ts), longest first (so a value containing another is masked whole). */
function sortedValues(values: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_VALUE_LENGTH) continue;
    for (const form of encodedForms(value)) all.add(form);
  }
  return [...all].sort((a, b) => b.length - a.length);
}

function maskValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (out.includes(value)) out = out.split(value).join(MASK);
  return out;
}
