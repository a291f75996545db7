/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) for `--har`: one entry per request a
 * step sent, with the whole response body, redacted like everything else tool writes. `tool
 * arazzo replay` reads the same entries back (replay-pipeline.ts), so what an entry keeps is
 * what a replay can answer with. Fields of our own start with `_`, as the spec asks.
 */
import { STATUS_CODES } from 'node:http';
import { splitContentType } from '../../output/parse-body.js';
import { isSecretName, MASK, redactRequest, redactText, type KnownSecrets } from '../../output/redact.js';
import { encodedForms } from '../../output/secret-forms.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { VERSION } from '../../version.js';
import type { CheckView, RawExchange } from './capture-runs.js';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    /** The error that stopped the request, when no response arrived (status 0). */
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: number; wait: number; receive: number };
  /** The step that sent it, and which run of the run it was. */
  _stepId: string;
  _run: number;
  /** Transport retries made before this response. */
  _transportRetries: number;
  /** The URL the response came from, after redirects, when it is not the request's. */
  _finalUrl?: string;
  /** --checks: the mismatches between the response and its operation, one per line (HAR 1.2's free-text field). */
  comment?: string;
  /** --checks: the same as data, as in --report's `checks`. */
  _checks?: CheckView;
}

/** The start of a HAR file up to its first entry; entries follow, separated by `,\n`, then harTail(). */
export function harHead(): string {
  const creator = { name: 'tool', version: VERSION, comment: 'tool arazzo run --har; replay with tool arazzo replay <file> --from <this file>' };
  return `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`;
}

/** The end of a HAR file, after its last entry. */
export function harTail(): string {
  return '\n]}}\n';
}

/** The entry of one exchange: request headers as sent, bodies whole, every secret the run knows as `***`. */
export function harEntry(exchange: RawExchange): HarEntry {
  const { request, response, known } = exchange;
  const time = response === undefined ? 0 : round(response.durationMs);
  const entry: HarEntry = {
    startedDateTime: exchange.run.startedAt ?? new Date().toISOString(),
    time,
    request: requestPart(request, response, known),
    response: response === undefined ? noResponse(exchange.error) : responsePart(response, known),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0 },
    _stepId: exchange.run.stepId,
    _run: exchange.run.run,
    _transportRetries: response?.retries ?? 0,
  };
  if (response !== undefined && response.url !== request.url) entry._finalUrl = redactText(response.url, known);
  const checks = exchange.run.checks;
  if (checks !== undefined && (checks.mismatches.length > 0 || checks.notes !== undefined)) {
    entry.comment = [...checks.mismatches.map((mismatch) => `${checks.mode === 'fail' ? 'check failed' : 'check warning'}: ${mismatch.line}`), ...(checks.more > 0 ? [`and ${checks.more} more`] : []), ...(checks.notes ?? []).map((note) => `check note: ${note}`)].join('\n');
    entry._checks = checks;
  }
  return entry;
}

/** The URL a HAR entry records for a request (redact.ts's masking), which a replay matches requests on. */
export function harUrl(request: HttpRequest, known: Iterable<string>): string {
  return redactRequest({ ...request, headers: {} }, known).url;
}

function requestPart(request: HttpRequest, response: HttpResponse | undefined, known: KnownSecrets): HarEntry['request'] {
  const shown = redactRequest({ ...request, headers: response?.requestHeaders ?? request.headers }, known.values ?? []);
  const url = harUrl(request, known.values ?? []);
  const part: HarEntry['request'] = {
    method: shown.method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: Object.entries(shown.headers).map(([name, value]) => ({ name, value })),
    queryString: queryOf(url),
    headersSize: -1,
    bodySize: 0,
  };
  if (shown.body !== undefined && request.body !== undefined) {
    const text = typeof shown.body === 'string' ? shown.body : (JSON.stringify(shown.body) ?? '');
    const mimeType = request.body.kind === 'multipart' ? 'multipart/form-data' : request.body.contentType;
    part.postData = { mimeType, text };
    part.bodySize = Buffer.byteLength(text);
  }
  return part;
}

function responsePart(response: HttpResponse, known: KnownSecrets): HarEntry['response'] {
  const headers: HarHeader[] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) headers.push({ name, value: isSecretName(name, known.names) ? MASK : redactText(one, known) });
  }
  const type = firstValue(response.headers['content-type']);
  const bytes = response.bytes ?? Buffer.alloc(0);
  return {
    status: response.status,
    statusText: STATUS_CODES[response.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    content: { size: bytes.length, mimeType: type === undefined ? '' : redactText(type, known), ...contentText(bytes, response.body, type, known) },
    redirectURL: '',
    headersSize: -1,
    bodySize: bytes.length,
  };
}

function noResponse(error: string | undefined): HarEntry['response'] {
  const part: HarEntry['response'] = { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1 };
  if (error !== undefined) part._error = error;
  return part;
}

/**
 * A text body as UTF-8 text with its secrets masked (redact.ts); a binary body, or text in another
 * charset, as base64 of its bytes with the known secret values (in every encoded form) masked in place.
 */
function contentText(bytes: Buffer, parsed: unknown, type: string | undefined, known: KnownSecrets): { text?: string; encoding?: 'base64' } {
  if (bytes.length === 0) return {};
  const charset = splitContentType(type).charset;
  const utf8 = charset === undefined || ['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(charset);
  if (!Buffer.isBuffer(parsed) && utf8) return { text: redactText(bytes.toString('utf8'), known) };
  let latin1 = bytes.toString('latin1');
  for (const value of known.values ?? []) {
    if (value.length < 4) continue;
    // Each form as a latin1 text's characters and as its UTF-8 bytes.
    for (const form of new Set(encodedForms(value).flatMap((text) => [text, Buffer.from(text).toString('latin1')]))) latin1 = latin1.split(form).join(MASK);
  }
  return { text: Buffer.from(latin1, 'latin1').toString('base64'), encoding: 'base64' };
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
