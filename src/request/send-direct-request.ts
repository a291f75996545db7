/** `tool get|post|put|patch|delete|head`: one request through the shared pipeline, the body on stdout. */

import type { Readable, Writable } from 'node:stream';
import type { Outcome } from '../errors/outcome.js';
import { CommandUsageError, ToolError } from '../errors/tool-error.js';
import { createPipeline } from '../http/create-pipeline.js';
import { redactRequest, secretValuesOf } from '../output/redact.js';
import { TransportError } from '../http/transport-error.js';
import type { HttpMethod, HttpRequest, HttpResponse } from '../http/types.js';
import { printableText } from '../output/printable.js';
import { formatRequestLines, formatResponseLines, statusLine } from './format-exchange.js';
import { headerValue, parseHeaderFlags } from './parse-header-flags.js';
import { readRequestBody } from './read-request-body.js';
import { resolveTarget, type Target } from './resolve-target.js';
import { writeResponseBody } from './write-response-body.js';
import { registeredApiHint } from './registered-api-hint.js';

export interface DirectCallOptions {
  method: HttpMethod;
  /** An absolute http(s) URL or `<api-name>/<path>`. */
  target: string;
  /** `Name: value` strings from -H. */
  headers: readonly string[];
  /** -d: the body text, `@file`, or `-` for stdin. */
  data?: string;
  /** --json: JSON Content-Type and Accept unless -H sets them. */
  json: boolean;
  verbose: boolean;
  /** --fail: exit 1 on HTTP >= 400 (the body then goes to stderr, not stdout). */
  fail: boolean;
  retry: number;
  retryUnsafe: boolean;
  timeoutMs: number;
}

export interface DirectCallIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdoutIsTTY: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

/** What a failing body shows on stderr with --fail, at most. */
const ERROR_BODY_LIMIT = 2048;

/**
 * Sends the request and writes the response body on stdout. Returns `succeeded`, or `failed` for
 * HTTP >= 400 with --fail. Throws ToolError: usage and configuration problems, transport failures
 * (TRANSPORT, one line), Ctrl-C (INTERRUPTED).
 */
export async function sendDirectRequest(opts: DirectCallOptions, io: DirectCallIO): Promise<Outcome> {
  const headers = parseHeaderFlags(opts.headers);
  if (opts.data !== undefined && opts.method === 'HEAD') throw new CommandUsageError('a HEAD request has no body; drop -d/--data');
  const body = opts.data === undefined ? undefined : await readRequestBody(opts.data, io);
  const pipeline = createPipeline({ timeoutMs: opts.timeoutMs, retry: opts.retry, retryUnsafe: opts.retryUnsafe });
  const say = (line: string) => io.stderr.write(`${line}\n`);
  try {
    const target = await resolveTarget(opts.target, { env: io.env, pipeline });
    const req = buildRequest(opts, headers, body, target);
    if (opts.verbose) formatRequestLines(req, target).forEach(say);
    const response = await send(pipeline.send(req, { signal: io.signal }), io.signal);
    if (opts.verbose) formatResponseLines(req, response).forEach(say);
    if (response.status >= 400) {
      const denied = response.status === 401 || response.status === 403;
      const hint = target.api !== undefined && target.auth === undefined && denied ? ` (API "${target.api.name}" has no credentials: tool auth login ${target.api.name})` : '';
      // A bare URL goes without credentials: if a registered API owns it, say how to send them.
      const owner = target.api === undefined && denied ? await registeredApiHint(req.url, req.method, io.env) : undefined;
      if (opts.fail) {
        say(`error: HTTP ${statusLine(response.status)}: ${req.method} ${redactRequest(req).url}${hint}`);
        if (owner !== undefined) say(`hint: ${owner}`);
        const excerpt = errorExcerpt(response, secretValuesOf(req));
        if (excerpt !== undefined) say(excerpt);
        return { kind: 'failed' };
      }
      if (!opts.verbose || hint !== '') say(`HTTP ${statusLine(response.status)}${hint}`);
      if (owner !== undefined) say(`hint: ${owner}`);
    }
    if (opts.method !== 'HEAD') {
      const note = await writeResponseBody(response, { ...io, secrets: secretValuesOf(req) });
      if (note !== undefined) say(`note: ${note}`);
    }
    return { kind: 'succeeded' };
  } finally {
    pipeline.close();
  }
}

function buildRequest(opts: DirectCallOptions, given: Record<string, string>, body: Buffer | undefined, target: Target): HttpRequest {
  const headers = { ...given };
  if (headerValue(headers, 'accept') === undefined) headers.accept = opts.json ? 'application/json' : '*/*';
  const req: HttpRequest = { method: opts.method, url: target.url, headers };
  if (body !== undefined) {
    // curl's defaults: --json says JSON, a bare -d is a form.
    const contentType = headerValue(headers, 'content-type') ?? (opts.json ? 'application/json' : 'application/x-www-form-urlencoded');
    if (headerValue(headers, 'content-type') === undefined) headers['content-type'] = contentType;
    req.body = { kind: 'bytes', contentType, data: body };
  }
  if (target.auth !== undefined) req.auth = target.auth;
  return req;
}

/** The response, or a ToolError: TRANSPORT (one line) for a transport failure, INTERRUPTED for Ctrl-C. */
async function send(sending: Promise<HttpResponse>, signal: AbortSignal): Promise<HttpResponse> {
  try {
    return await sending;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    if (error.code === 'ABORTED' || signal.aborted) throw new ToolError('INTERRUPTED', 'interrupted; the request was abandoned');
    const retried = error.retries > 0 ? ` (after ${error.retries} ${error.retries === 1 ? 'retry' : 'retries'})` : '';
    throw new ToolError('TRANSPORT', `${error.message}${retried}`);
  }
}

/** A text body of a failed response, cut to a readable size, safe for a terminal (printable.ts); undefined for none or a binary one. */
function errorExcerpt(response: HttpResponse, secrets: string[]): string | undefined {
  const body = response.body;
  if (body === undefined || Buffer.isBuffer(body)) return undefined;
  const text = typeof body === 'string' ? body : (response.bytes?.toString('utf8') ?? JSON.stringify(body));
  const shown = (part: string) => printableText(part, { values: secrets }).trimEnd();
  return text.length > ERROR_BODY_LIMIT ? `${shown(text.slice(0, ERROR_BODY_LIMIT))}… (${text.length - ERROR_BODY_LIMIT} more characters)` : shown(text);
}
