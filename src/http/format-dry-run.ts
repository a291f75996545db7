/** The spec's dry-run rendering of a request that is not sent. */

import { redactRequest } from './redact.js';
import type { HttpRequest } from './types.js';

/** Three lines, no trailing newline: "<stepId> <METHOD> <url>", the headers as one-line JSON, the body as JSON ("null" without one). */
export function formatDryRun(stepId: string, req: HttpRequest): string {
  const shown = redactRequest(req);
  return `${stepId} ${shown.method} ${shown.url}\n${JSON.stringify(shown.headers)}\n${JSON.stringify(shown.body ?? null)}`;
}
