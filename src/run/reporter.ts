import type { Writable } from 'node:stream';
import type { RunFailure } from '../../machines/types.js';
import type { Style } from '../output/style.js';
import { formatDryRun } from '../http/format-dry-run.js';
import { redactRequest, secretValuesOf } from '../http/redact.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { printableLine, printableText } from '../http/printable.js';
import { failureMessage } from './failure-message.js';

/** Everything `arazzo run` tells the user on stderr. stdout never sees any of it. */
export interface Reporter {
  warn(message: string): void;
  info(message: string): void;
  dryRun(stepId: string, request: HttpRequest): void;
  stepDone(stepId: string, request: HttpRequest, response: HttpResponse | undefined, ok: boolean, reason?: string): void;
  stepFailedEarly(stepId: string, reason: string): void;
  retrying(stepId: string, delayMs: number, retry: number): void;
  workflowFailed(workflowId: string, failure: RunFailure): void;
}

/**
 * A reporter writing progress lines to `stderr`, coloured when `style` is. With `quiet`, only
 * warnings and failures. Every message is made printable (printable.ts): `secrets` (the values of
 * --input-env inputs) and the credentials of every request seen so far are shown as `***`.
 */
export function createReporter(stderr: Writable, style: Style, opts: { quiet?: boolean; secrets?: readonly string[] } = {}): Reporter {
  const write = (line: string) => stderr.write(`${line}\n`);
  const progress = opts.quiet ? () => undefined : write;
  const known = new Set(opts.secrets ?? []);
  const values = { values: known };
  // A server may echo a credential in a later step's error: remember what each request carried.
  const remember = (request: HttpRequest) => {
    if (request.auth !== undefined) for (const value of secretValuesOf(request)) known.add(value);
  };
  return {
    warn: (message) => write(`${style.yellow('warning:')} ${printableText(message, values)}`),
    info: (message) => progress(message),
    dryRun(stepId, request) {
      remember(request);
      write(formatDryRun(stepId, request, known));
    },
    stepDone(stepId, request, response, ok, reason) {
      remember(request);
      // Redacting and formatting a line nobody sees is a cost paid on every step of a quiet run.
      if (opts.quiet) return;
      const shown = redactRequest(request, known);
      const mark = ok ? style.green('✓') : style.red('✗');
      const status = response ? String(response.status) : '---';
      const timing = response ? style.dim(` ${formatMs(response.durationMs)}`) : '';
      const why = !ok && reason ? `: ${printableLine(reason, values)}` : '';
      progress(`${mark} ${stepId} ${shown.method} ${shown.url} ${ok ? style.green(status) : style.red(status)}${timing}${why}`);
    },
    stepFailedEarly: (stepId, reason) => progress(`${style.red('✗')} ${stepId}: ${printableLine(reason, values)}`),
    retrying: (stepId, delayMs, retry) =>
      progress(`${style.yellow('↻')} ${stepId}: retry ${retry}${delayMs > 0 ? ` in ${formatMs(delayMs)}` : ''}`),
    workflowFailed(workflowId, failure) {
      const where = failure.stepId ? ` at step "${failure.stepId}"` : '';
      write(`${style.red('error:')} workflow "${workflowId}" failed${where}: ${printableLine(failureMessage(failure), values)}`);
    },
  };
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)}s` : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)}ms`;
}
