/** The spec's dry-run rendering of a request that is not sent. */

import { stripControls } from '../output/printable.js';
import { redactRequest } from '../output/redact.js';
import type { HttpRequest } from './types.js';

/**
 * Three lines, no trailing newline: "<stepId> <METHOD> <url>", the headers as one-line JSON, the
 * body as JSON ("null" without one). Secrets (see redact.ts) and the `known` values are `***`.
 */
export function formatDryRun(stepId: string, req: HttpRequest, known: Iterable<string> = []): string {
  const shown = redactRequest(req, known);
  const lines = [`${stepId} ${shown.method} ${shown.url}`, JSON.stringify(shown.headers), JSON.stringify(shown.body ?? null)];
  // JSON escapes C0 controls but not C1 or bidi controls; the document is untrusted too.
  return lines.map((line) => stripControls(line).replace(/[\t\n]/g, ' ')).join('\n');
}
