/** The `-v` lines of a direct call on stderr, curl style: `>` request, `<` response, `*` notes. */

import { STATUS_CODES } from 'node:http';
import { redactRequest, type HttpRequest, type HttpResponse } from '../http/index.js';
import { printableLine } from '../http/printable.js';
import { isSecretName, MASK, redactUrl, secretNames, secretValuesOf } from '../http/redact.js';
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
  if (response.url !== req.url) notes.push(`redirected to ${printableLine(redactUrl(response.url, secrets), known)}`);
  lines.push(`* ${notes.join(', ')}`);
  return lines;
}

/** `404 Not Found` */
export function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text === undefined ? String(status) : `${status} ${text}`;
}
