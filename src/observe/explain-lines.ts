/**
 * The wording of a run's explanations on stderr: a failed step's exchange and criteria, the full
 * exchange of --verbose, action and transport-retry lines. Pure: everything shown is redacted and
 * made printable here (redact.ts, printable.ts) with the secrets the reporter knows.
 */
import { STATUS_CODES } from 'node:http';
import type { Style } from '../output/style.js';
import { printableLine, printableText } from '../output/printable.js';
import { isSecretName, MASK, redactRequest, redactText, secretNames, type KnownSecrets } from '../output/redact.js';
import type { HttpRequest, HttpResponse, TransportRetry } from '../http/types.js';
import { checkLines, type ResponseCheck } from './response-checks.js';

/** One comparison of a simple criterion, with its operands' values (explain-criteria.ts makes them). */
export interface Comparison {
  source: string;
  left: unknown;
  /** `==`, `<`, …: the condition language's comparison operators. */
  op?: string;
  right?: unknown;
  /** undefined when it could not be evaluated (`error` says why). */
  holds: boolean | undefined;
  error?: string;
}

/** The verdict on one criterion, and for a simple one each comparison of its top-level `&&`/`||` chain. */
export interface CriterionExplanation {
  source: string;
  /** The criterion's type: `simple`, `regex`, `jsonpath`, `xpath`. */
  kind: string;
  /** undefined: not evaluated (a typed criterion after the first miss), or it could not be (`error`). */
  holds: boolean | undefined;
  error?: string;
  /** Empty for the typed kinds (regex, jsonpath, xpath): only their verdict is shown. */
  comparisons: Comparison[];
}

/** Bytes of a failed step's response body shown without --verbose. */
export const FAILURE_BODY_BYTES = 2048;
/** An operand longer than this (a big object) is shortened. */
const OPERAND_CHARS = 80;
/** Characters redacted beyond a cut, so that a secret straddling it is masked whole rather than half shown. */
const CUT_MARGIN = 1024;
const INDENT = '  ';

/** What a step sent and got, handed to the reporter only when it may be printed (a failure, or --verbose). */
export interface StepExchange {
  request: HttpRequest;
  response?: HttpResponse;
  ok: boolean;
  /** The success criteria explained; called only when the lines are printed. */
  criteria?: () => CriterionExplanation[];
  /** --checks: how the response compares with its operation; under --checks fail its mismatches explain the failure too. */
  checks?: ResponseCheck;
}

/** An Arazzo action that fired (or a retry that hit its limit), for its one line. */
export interface ActionNote {
  action: string;
  type: 'goto' | 'end' | 'retry';
  /** The action's criteria as written (they all held); empty for an action without criteria. */
  criteria: readonly string[];
  /** goto: the target step. */
  target?: string;
  /** retry: this retry's number, the limit and the wait. */
  retry?: number;
  limit?: number;
  delayMs?: number;
  /** retry: the limit was reached, so the workflow fails instead. */
  limitReached?: boolean;
}

/** The lines under a failed step's progress line: request line, status and content type, a body excerpt, then the criteria. */
export function failureLines(exchange: StepExchange, secrets: Iterable<string>, style: Style): string[] {
  const known = knownFor(exchange.request, secrets);
  const shown = redactRequest(exchange.request, known.values);
  const lines = [`${INDENT}${style.dim('>')} ${shown.method} ${printableLine(shown.url, known)}`];
  const response = exchange.response;
  if (response) {
    const type = headerValue(response.headers['content-type']);
    lines.push(`${INDENT}${style.dim('<')} ${statusLine(response.status)} (${type === undefined ? 'no content type' : printableLine(type, known)})`);
    lines.push(...bodyLines(response.bytes, response.body, FAILURE_BODY_BYTES, known, 'add --verbose, and --tool-body-limit, to see more'));
  }
  lines.push(...criteriaLines(exchange.criteria?.() ?? [], known, style));
  lines.push(...failedCheckLines(exchange.checks, known, style));
  return lines;
}

/** Under --checks fail, a line per mismatch: `✗ check: response body /id must be integer (type) — GET /pets/{id} 200 application/json`. */
function failedCheckLines(checks: ResponseCheck | undefined, known: KnownSecrets, style: Style): string[] {
  if (checks?.mode !== 'fail') return [];
  return checkLines(checks).map((line) => `${INDENT}${style.red('✗')} check: ${printableLine(line, known)}`);
}

/** --verbose: the request line, headers as sent (secrets as `***`) and body, the response status, headers and body, each body at most `bodyLimit` bytes; then the criteria of a failed step. */
export function exchangeLines(exchange: StepExchange, secrets: Iterable<string>, style: Style, bodyLimit: number): string[] {
  const known = knownFor(exchange.request, secrets);
  const response = exchange.response;
  const sent = { ...exchange.request, headers: response?.requestHeaders ?? exchange.request.headers };
  const shown = redactRequest(sent, known.values);
  const req = style.dim('>');
  const lines = [`${INDENT}${req} ${shown.method} ${printableLine(shown.url, known)}`];
  for (const [name, value] of Object.entries(shown.headers)) lines.push(`${INDENT}${req} ${printableLine(name)}: ${printableLine(value, known)}`);
  if (shown.body !== undefined) {
    const text = typeof shown.body === 'string' ? shown.body : JSON.stringify(shown.body);
    lines.push(...bodyLines(Buffer.from(text), text, bodyLimit, known, 'raise --tool-body-limit to see more'));
  }
  if (response) {
    const res = style.dim('<');
    lines.push(`${INDENT}${res} ${statusLine(response.status)}`);
    for (const [name, value] of Object.entries(response.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) lines.push(`${INDENT}${res} ${printableLine(name)}: ${isSecretName(name, known.names) ? MASK : printableLine(one, known)}`);
    }
    lines.push(...bodyLines(response.bytes, response.body, bodyLimit, known, 'raise --tool-body-limit to see more'));
  }
  if (!exchange.ok) lines.push(...criteriaLines(exchange.criteria?.() ?? [], known, style), ...failedCheckLines(exchange.checks, known, style));
  return lines;
}

/** One line per criterion, `$statusCode == 201  →  422 == 201  false`, and under a `&&`/`||` chain one per comparison. */
export function criteriaLines(criteria: readonly CriterionExplanation[], known: KnownSecrets, style: Style): string[] {
  const lines: string[] = [];
  for (const criterion of criteria) {
    const source = printableLine(criterion.source, known);
    const only = criterion.comparisons.length === 1 ? criterion.comparisons[0] : undefined;
    if (criterion.kind !== 'simple') {
      lines.push(`${INDENT}${criterion.kind} ${source}  ${verdict(criterion.holds, criterion.error, style)}`);
    } else if (only !== undefined && only.source === criterion.source) {
      lines.push(`${INDENT}${comparisonText(only, known, style)}`);
    } else {
      lines.push(`${INDENT}${source}  ${verdict(criterion.holds, criterion.error, style)}`);
      for (const comparison of criterion.comparisons) lines.push(`${INDENT}${INDENT}${comparisonText(comparison, known, style)}`);
    }
  }
  return lines;
}

/** `→ goto cleanup (action "cleanupOn404": $statusCode == 404)`, `■ end (action "stop")`, `↻ retry 1/3 in 2s (action "busy")`. */
export function actionLine(note: ActionNote, secrets: Iterable<string>, style: Style): string {
  const known = { values: secrets };
  const criteria = note.criteria.length === 0 ? '' : `: ${note.criteria.map((source) => printableLine(source, known)).join(', ')}`;
  const why = `(action ${JSON.stringify(printableLine(note.action))}${criteria})`;
  switch (note.type) {
    case 'goto':
      return `${INDENT}${style.cyan('→')} goto ${printableLine(note.target ?? '?')} ${why}`;
    case 'end':
      return `${INDENT}${style.cyan('■')} end ${why}`;
    case 'retry': {
      if (note.limitReached) return `${INDENT}${style.yellow('↻')} no retry: the limit of ${note.limit ?? 0} is reached ${why}`;
      const wait = note.delayMs !== undefined && note.delayMs > 0 ? ` in ${formatWait(note.delayMs)}` : '';
      return `${INDENT}${style.yellow('↻')} retry ${note.retry ?? 1}/${note.limit ?? '?'}${wait} ${why}`;
    }
  }
}

/** `⟳ fetch: 503 Service Unavailable, transport retry 1/2 in 400ms` (printed before the step's progress line). */
export function transportRetryLine(stepId: string, retry: TransportRetry, style: Style): string {
  const cause = retry.status !== undefined ? statusLine(retry.status) : (retry.code ?? 'transport error').toLowerCase().replace(/_/g, ' ');
  return `${style.yellow('⟳')} ${printableLine(stepId)}: ${cause}, transport retry ${retry.attempt}/${retry.of} in ${formatWait(retry.delayMs)}`;
}

/** `2s`, `1.5s`, `400ms`. */
export function formatWait(ms: number): string {
  if (ms >= 1000) return Number.isInteger(ms / 1000) ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
  return `${Math.round(ms)}ms`;
}

function comparisonText(comparison: Comparison, known: KnownSecrets, style: Style): string {
  const source = printableLine(comparison.source, known);
  const left = operandText(comparison.left, known);
  const resolved = comparison.op === undefined ? left : `${left} ${comparison.op} ${operandText(comparison.right, known)}`;
  return `${source}  →  ${resolved}  ${verdict(comparison.holds, comparison.error, style)}`;
}

function verdict(holds: boolean | undefined, error: string | undefined, style: Style): string {
  if (error !== undefined) return style.red(`error: ${error}`);
  if (holds === undefined) return style.dim('not evaluated');
  return holds ? style.green('true') : style.red('false');
}

/** An operand as JSON, secrets masked, at most OPERAND_CHARS characters (`…` marks the cut). */
function operandText(value: unknown, known: KnownSecrets): string {
  let text: string;
  if (value === undefined) text = 'null';
  else if (Buffer.isBuffer(value)) text = `<${value.length} bytes>`;
  // Strings are masked before JSON escapes their quotes, which would hide `"token": "…"` from redact.ts.
  else text = JSON.stringify(maskStrings(value, known)) ?? String(value);
  const line = printableLine(text.length > OPERAND_CHARS + CUT_MARGIN ? text.slice(0, OPERAND_CHARS + CUT_MARGIN) : text, known);
  return line.length > OPERAND_CHARS ? `${line.slice(0, OPERAND_CHARS - 1)}…` : line;
}

/** A copy of `value` with every string masked as free text (JSON text inside a string included). */
function maskStrings(value: unknown, known: KnownSecrets): unknown {
  if (typeof value === 'string') return redactText(value, known);
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, known));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskStrings(item, known)]));
}

/** A body as indented lines: its text masked and made printable, cut at `limit` bytes with a note; binary bodies by size only. */
function bodyLines(bytes: Buffer | undefined, parsed: unknown, limit: number, known: KnownSecrets, more: string): string[] {
  if (Buffer.isBuffer(parsed)) return [`${INDENT}${INDENT}<${parsed.length} bytes of binary body, not shown>`];
  const raw = bytes ?? (parsed === undefined ? undefined : Buffer.from(typeof parsed === 'string' ? parsed : (JSON.stringify(parsed) ?? '')));
  if (raw === undefined || raw.length === 0) return [];
  const cut = raw.length > limit;
  // Mask first, then cut: a secret across the cut would otherwise escape the patterns half shown.
  let text = printableText((cut ? raw.subarray(0, limit + CUT_MARGIN) : raw).toString('utf8'), known);
  if (cut) text = Buffer.from(text).subarray(0, limit).toString('utf8').replace(/\uFFFD+$/, '');
  const lines = text.replace(/\n+$/, '').split('\n').map((line) => `${INDENT}${INDENT}${line}`);
  if (cut) lines.push(`${INDENT}${INDENT}… cut at ${limit} of ${raw.length} bytes (${more})`);
  return lines;
}

function knownFor(request: HttpRequest, secrets: Iterable<string>): { names: ReadonlySet<string>; values: string[] } {
  return { names: secretNames(request.auth), values: [...secrets] };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `422 Unprocessable Entity` */
function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text === undefined ? String(status) : `${status} ${text}`;
}
