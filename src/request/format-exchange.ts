/** The `-v` lines of a direct call on stderr, curl style: `>` request, `<` response, `*` notes. */

import { STATUS_CODES } from 'node:http';
import { redactRequest, isSecretName, MASK, redactUrl, secretNames, secretValuesOf } from '../output/redact.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { printableLine } from '../output/printable.js';
import type { Target } from './resolve-target.js';

/** The request line and headers (secrets as `***`), and which credentials the pipeline will add. */
export function formatRequestLines(req: HttpRequest, target: Target): string[] {
  const shown = redactRequest(req);
  const lines = [`> ${shown.method} ${shown.url}`];
  for (const [name, value] of Object.entries(shown.headers)) lines.push(`> ${name}: ${value}`);
  if (target.api !== undefined) {
    const origin = new URL(target.api.baseUrl).origin;
    const auth = target.auth ? target.auth.describe() : 'none';
    lines.push(`* API "${target.api.name}": auth ${auth}; credentials are sent only to ${origin}`);
  }
  return lines;
}

/** The status line and response headers (secret ones, such as set-cookie, as `***`; the server's text made printable). */
export function formatResponseLines(req: HttpRequest, response: HttpResponse): string[] {
  const secrets = secretNames(req.auth);
  const known = { names: secrets, values: secretValuesOf(req) };
  const lines = [`< ${statusLine(response.status)}`];
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`< ${printableLine(name)}: ${isSecretName(name, secrets) ? MASK : printableLine(one, known)}`);
  }
  const notes = [`${Math.round(response.durationMs)} ms`];
  if (response.retries > 0) notes.push(`${response.retries} transport ${response.retries === 1 ? 'retry' : 'retries'}`);
  if (wasRedirected(req.url, response.url, secrets)) notes.push(`redirected to ${printableLine(redactUrl(response.url, secrets), known)}`);
  lines.push(`* ${notes.join(', ')}`);
  return lines;
}

/**
 * Whether the response came from another URL than the one asked for. The auth hook may have added
 * its credential to the query (`?api_key=…`) on the way out; that alone is not a redirect.
 */
function wasRedirected(asked: string, final: string, credentialNames: ReadonlySet<string>): boolean {
  if (asked === final) return false;
  let before: URL;
  let after: URL;
  try {
    before = new URL(asked);
    after = new URL(final);
  } catch {
    return true;
  }
  const added = (name: string): boolean => credentialNames.has(name.toLowerCase()) && !before.searchParams.has(name);
  before.search = new URLSearchParams([...before.searchParams]).toString();
  after.search = new URLSearchParams([...after.searchParams].filter(([name]) => !added(name))).toString();
  return before.href !== after.href;
}

/** `404 Not Found` */
export function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text === undefined ? String(status) : `${status} ${text}`;
}
