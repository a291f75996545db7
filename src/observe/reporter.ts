import type { Writable } from 'node:stream';
import type { RunFailure } from '../../machines/types.js';
import type { Style } from '../output/style.js';
import { formatDryRun } from '../http/format-dry-run.js';
import { credentialParts, isSecretName, redactRequest, secretValuesOf } from '../output/redact.js';
import type { HttpRequest, HttpResponse, TransportRetry } from '../http/types.js';
import { printableLine, printableText } from '../output/printable.js';
import { actionLine, exchangeLines, failureLines, transportRetryLine, type ActionNote, type StepExchange } from './explain-lines.js';
import { failureMessage } from './failure-message.js';
import type { RunEvents } from './run-events.js';
import { checkLines, type ResponseCheck } from './response-checks.js';
import type { MessageNote } from './run-events.js';

/** Bytes of each body --verbose shows, unless --tool-body-limit says otherwise. */
export const DEFAULT_BODY_LIMIT = 4096;

/** Everything `arazzo run` tells the user on stderr. stdout never sees any of it. */
export interface Reporter {
  warn(message: string): void;
  info(message: string): void;
  dryRun(stepId: string, request: HttpRequest): void;
  /** `checks`: how the response compares with its operation (--checks); warn mode prints a warning per mismatch. */
  stepDone(stepId: string, request: HttpRequest, response: HttpResponse | undefined, ok: boolean, reason?: string, checks?: ResponseCheck): void;
  stepFailedEarly(stepId: string, reason: string): void;
  /** An asynchronous step (Arazzo 1.1) sent or received its message, launched its receive, or failed on its channel. */
  messageDone(stepId: string, note: MessageNote): void;
  /** A nested workflow step (v2) is done: the workflow it called, and whether the step succeeded. */
  callDone(stepId: string, workflowId: string, ok: boolean, reason?: string): void;
  /** After `stepDone`, for a failed step (or every step with --verbose): what was sent and received, and why the criteria failed. */
  exchange(stepId: string, exchange: StepExchange): void;
  /** The pipeline is about to retry the step's request (before the step's progress line). */
  transportRetry(stepId: string, retry: TransportRetry): void;
  /** An Arazzo action fired: one line under the step's progress line. */
  action(stepId: string, note: ActionNote): void;
  workflowFailed(workflowId: string, failure: RunFailure): void;
}

/** What the step executor tells: everything but the actions (the narrator's, from the machine) and the end of the workflow, which the run words itself. */
export type StepReporter = Omit<Reporter, 'workflowFailed' | 'action'>;

/** The stderr narration of the executor's events on `bus` (the action lines follow `action.fired`: narrate-actions.ts). */
export function narrateOnStderr(bus: RunEvents, reporter: Reporter): void {
  bus.on('warning', (event) => reporter.warn(event.message));
  bus.on('info', (event) => reporter.info(event.message));
  bus.on('request.dryRun', (event) => reporter.dryRun(event.stepId, event.request));
  bus.on('step.response', (event) => reporter.stepDone(event.stepId, event.request, event.response, event.ok, event.reason, event.checks));
  bus.on('step.failedEarly', (event) => reporter.stepFailedEarly(event.stepId, event.reason));
  bus.on('step.message', ({ type: _, stepId, ...note }) => reporter.messageDone(stepId, note));
  bus.on('call.ended', (event) => reporter.callDone(event.stepId, event.workflowId, event.ok, event.reason));
  bus.on('step.explained', (event) => reporter.exchange(event.stepId, event.exchange));
  bus.on('request.retry', (event) => reporter.transportRetry(event.stepId, event.retry));
}

export interface ReporterOptions {
  /** Only warnings and errors; the explanation of the failure that ended the run still follows its `error:` line. */
  quiet?: boolean;
  /** Values shown as `***` (--input-env inputs). */
  secrets?: readonly string[];
  /** Print every step's full exchange (headers, bodies up to `bodyLimit`). */
  verbose?: boolean;
  bodyLimit?: number;
}

/**
 * A reporter writing progress lines to `stderr`, coloured when `style` is. With `quiet`, only
 * warnings and failures. Every message is made printable (printable.ts): `secrets` (the values of
 * --input-env inputs) and the credentials of every request seen so far are shown as `***`.
 */
export function createReporter(stderr: Writable, style: Style, opts: ReporterOptions = {}): Reporter {
  const write = (line: string) => stderr.write(`${line}\n`);
  const progress = opts.quiet ? () => undefined : write;
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  // --quiet: the explanation of the last failed step, printed if its failure ends the run.
  let held: { stepId: string; lines: () => string[] } | undefined;
  const known = new Set(opts.secrets ?? []);
  const values = { values: known };
  // A server may echo a credential in a later step's error: remember what each request carried.
  // Whether a header name is secret-like, per name: a run sends the same few names on every step.
  const secretHeaders = new Map<string, boolean>();
  const isSecretHeader = (name: string): boolean => {
    let secret = secretHeaders.get(name);
    if (secret === undefined) {
      secret = isSecretName(name);
      if (secretHeaders.size < 256) secretHeaders.set(name, secret);
    }
    return secret;
  };
  const remember = (request: HttpRequest) => {
    if (request.auth !== undefined) for (const value of secretValuesOf(request)) known.add(value);
    // A step may send its own Authorization (or another secret-named header) from an input.
    else for (const name in request.headers) if (isSecretHeader(name)) for (const part of credentialParts(request.headers[name]!)) known.add(part);
  };
  return {
    warn: (message) => write(`${style.yellow('warning:')} ${printableText(message, values)}`),
    info: (message) => progress(message),
    dryRun(stepId, request) {
      remember(request);
      write(formatDryRun(stepId, request, known));
    },
    stepDone(stepId, request, response, ok, reason, checks) {
      remember(request);
      held = undefined;
      // Warnings are printed with --quiet too; --checks fail words its mismatches in the failure's explanation instead.
      const checkWarnings = () => {
        if (checks === undefined) return;
        if (checks.mode === 'warn') for (const line of checkLines(checks)) write(`${style.yellow('warning:')} step "${printableLine(stepId)}": ${printableLine(line, values)}`);
        for (const note of checks.notes) progress(`  ${style.dim('note:')} step "${printableLine(stepId)}": ${printableLine(note, values)} — ${printableLine(checks.against, values)}`);
      };
      // Before the progress line, as transport retries are: the explanation stays right under it.
      checkWarnings();
      // Redacting and formatting a line nobody sees is a cost paid on every step of a quiet run.
      if (opts.quiet) return;
      const shown = redactRequest(request, known);
      const mark = ok ? style.green('✓') : style.red('✗');
      const status = response ? String(response.status) : '---';
      const timing = response ? style.dim(` ${formatMs(response.durationMs)}`) : '';
      const why = !ok && reason ? `: ${printableLine(reason, values)}` : '';
      progress(`${mark} ${printableLine(stepId)} ${shown.method} ${shown.url} ${ok ? style.green(status) : style.red(status)}${timing}${why}`);
    },
    stepFailedEarly: (stepId, reason) => progress(`${style.red('✗')} ${printableLine(stepId)}: ${printableLine(reason, values)}`),
    messageDone(stepId, note) {
      if (note.ok) held = undefined;
      const mark = note.action === 'launch' ? style.dim('…') : note.ok ? style.green('✓') : style.red('✗');
      const what = note.action === 'launch' ? 'receive in flight on' : note.action === 'send' ? 'sent on' : 'received on';
      const why = !note.ok && note.reason ? `: ${printableLine(note.reason, values)}` : '';
      const timing = note.action === 'launch' ? '' : style.dim(` ${formatMs(note.durationMs)}`);
      progress(`${mark} ${printableLine(stepId)} ${what} ${printableLine(note.channel, values)} (${printableLine(note.server, values)})${timing}${why}`);
    },
    callDone(stepId, workflowId, ok, reason) {
      if (ok) held = undefined;
      const why = !ok && reason ? `: ${printableLine(reason, values)}` : '';
      progress(`${ok ? style.green('✓') : style.red('✗')} ${printableLine(stepId)} → workflow ${printableLine(workflowId)}${why}`);
    },
    exchange(stepId, exchange) {
      if (opts.quiet) {
        if (!exchange.ok) held = { stepId, lines: () => failureLines(exchange, known, style) };
        return;
      }
      const lines = opts.verbose ? exchangeLines(exchange, known, style, bodyLimit) : exchange.ok ? [] : failureLines(exchange, known, style);
      if (lines.length > 0) write(lines.join('\n'));
    },
    transportRetry: (stepId, retry) => progress(transportRetryLine(stepId, retry, style)),
    action: (_stepId, note) => progress(actionLine(note, known, style)),
    workflowFailed(workflowId, failure) {
      // Ids come from the document: printed without control characters, as everything else.
      const where = failure.stepId ? ` at step "${printableLine(failure.stepId)}"` : '';
      write(`${style.red('error:')} workflow "${printableLine(workflowId)}" failed${where}: ${printableLine(failureMessage(failure), values)}`);
      // The failure is the error, and its explanation part of it: --quiet keeps it.
      if (held !== undefined && held.stepId === failure.stepId && explained(failure)) write(held.lines().join('\n'));
      held = undefined;
    },
  };
}

/** Failures that a step's response caused (not a budget, a crash, an unsupported construct or broken action criteria). */
function explained(failure: RunFailure): boolean {
  if (failure.crashed) return false;
  return failure.code === 'END_ACTION' || failure.code === 'RETRIES_EXHAUSTED' || (failure.code === 'STEP_FAILED' && failure.action === undefined);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)}s` : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)}ms`;
}
