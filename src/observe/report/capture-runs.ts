/**
 * What the report files know of a run: every step run with its request and response (redacted,
 * bodies cut at the body limit), its criteria and their operands, its transport retries and the
 * actions that fired. It follows the run's events (run-events.ts) as the stderr narration does,
 * and keeps only redacted copies, made at once.
 */
import { STATUS_CODES } from 'node:http';
import type { StepRecord, WorkflowPlan } from '../../../machines/types.js';
import { styleFor } from '../../output/style.js';
import { printableLine } from '../../output/printable.js';
import { credentialParts, isSecretName, MASK, redactRequest, redactText, redactUrl, secretNames, secretValuesOf, type KnownSecrets } from '../../output/redact.js';
import type { HttpRequest, HttpResponse, TransportRetry } from '../../http/types.js';
import type { CriterionExplanation } from '../explain-lines.js';
import { actionLine, failureLines, type ActionNote, type StepExchange } from '../explain-lines.js';
import { createActionNarrator, type NarratedProgram, type NarratedWorkflows } from '../narrate-actions.js';
import type { RunEvents } from '../run-events.js';
import { mismatchLine, type ResponseCheck, type ResponseMismatch } from '../response-checks.js';

export type { NarratedWorkflows };
import { bodyExcerpt, maskJson, operandText, type BodyExcerpt } from './mask-values.js';

const PLAIN = styleFor(false);

export interface RequestView {
  method: string;
  url: string;
  /** As sent (credentials the API's auth added included, as `***`). */
  headers: Record<string, string>;
  body?: BodyExcerpt;
}

export interface ResponseView {
  status: number;
  statusText: string;
  /** The final URL, after redirects. */
  url: string;
  headers: Record<string, string | string[]>;
  contentType?: string;
  body?: BodyExcerpt;
}

export interface ComparisonView {
  source: string;
  /** The operand's value as JSON text, masked: `422`, `"abc"`, `null`. */
  left: string;
  op?: string;
  right?: string;
  holds: boolean | null;
  error?: string;
}

export interface CriterionView {
  source: string;
  kind: string;
  /** null: not evaluated (a typed criterion after the first miss), or it could not be (`error`). */
  holds: boolean | null;
  error?: string;
  comparisons: ComparisonView[];
}

export interface ActionView {
  name: string;
  type: ActionNote['type'];
  /** The action's criteria (they all held); empty for an action without criteria. */
  criteria: string[];
  target?: string;
  retry?: number;
  limit?: number;
  delayMs?: number;
  limitReached?: true;
  /** The line stderr shows for it. */
  line: string;
}

/** The response checks of a step run, redacted (docs/reports.md). */
export interface CheckView {
  mode: 'warn' | 'fail';
  /** `GET /pets/{id} 200 application/json`: the operation and the declared response the response was checked against. */
  against: string;
  /** At most 5; `check` is `status`, `contentType` or `schema`, a schema mismatch has its `pointer` and `keyword`; `line` is the stderr wording. */
  mismatches: Array<ResponseMismatch & { line: string }>;
  /** Mismatches found beyond those listed. */
  more: number;
  /** What was not checked, and why. */
  notes?: string[];
}

/** One step run, redacted. */
export interface StepRun {
  /** 1 for the run's first step run. */
  run: number;
  stepId: string;
  ok: boolean;
  /** 0 when no response arrived. */
  status: number;
  dryRun: boolean;
  reason?: string;
  /** When the request was sent (or the step failed without one); absent for a run only the record knows of. */
  startedAt?: string;
  /** From sending to the whole response, transport retries included; absent without a response. */
  durationMs?: number;
  transportRetries: TransportRetry[];
  request?: RequestView;
  response?: ResponseView;
  criteria: CriterionView[];
  actions: ActionView[];
  /** --checks warn|fail: how the response compares with its operation in the description. */
  checks?: CheckView;
  /** A failed run: the lines stderr explains it with (its request, response and criteria). */
  explanation?: string[];
  outputs?: Record<string, unknown>;
  failedVia?: StepRecord['failedVia'];
  /** Arazzo 1.1: an asynchronous step's send or receive (it has no request or response). */
  message?: { action: 'send' | 'receive'; channel: string; server: string };
}

/** The raw exchange of a sent step run, for writers that need its whole bodies (the HAR); they must redact with `known`. */
export interface RawExchange {
  run: StepRun;
  request: HttpRequest;
  response?: HttpResponse;
  /** The error's message, when no response arrived. */
  error?: string;
  known: KnownSecrets;
}

export interface CaptureOptions {
  /** Values shown as `***` (--input-env inputs); request credentials are added as steps run. */
  secrets: readonly string[];
  /** Bytes of each body, and characters of each operand, kept. */
  bodyLimit: number;
  /** Called for every request sent, with its response. */
  onExchange?: (exchange: RawExchange) => void;
  /** Wall-clock milliseconds (tests pass a fixed clock). */
  now?: () => number;
}

export interface RunCapture {
  /**
   * Captures each step run, its exchange and criteria, and the actions that fire, from the run's
   * events on `bus` (`workflows`: every workflow of a v2 run, as the narrator takes them).
   */
  subscribe(bus: RunEvents, plan: WorkflowPlan, programs: readonly NarratedProgram[], workflows?: NarratedWorkflows): void;
  /** The step runs, with the outputs and `failedVia` of the run record's `steps` (`records`) merged in. */
  runs(records: readonly StepRecord[]): StepRun[];
  /** The secrets known so far (the inputs', and the credentials of every request). */
  known(): KnownSecrets;
}

/** Starts capturing one run. */
export function createRunCapture(options: CaptureOptions): RunCapture {
  const now = options.now ?? (() => Date.now());
  const values = new Set(options.secrets);
  const runs: StepRun[] = [];
  const retries = new Map<string, TransportRetry[]>();
  // The request and response of the latest run of each step, until the executor hands over its criteria.
  const open = new Map<string, StepRun>();

  const remember = (request: HttpRequest, sent?: Record<string, string>) => {
    if (request.auth !== undefined) for (const value of secretValuesOf(request)) values.add(value);
    const headers = { ...request.headers, ...sent };
    for (const name in headers) if (isSecretName(name, secretNames(request.auth))) for (const part of credentialParts(headers[name]!)) values.add(part);
  };
  const knownFor = (request?: HttpRequest): KnownSecrets => ({ names: secretNames(request?.auth), values });
  const add = (stepId: string, fields: Partial<StepRun> & Pick<StepRun, 'ok' | 'status' | 'dryRun'>): StepRun => {
    const run: StepRun = { run: runs.length + 1, stepId, startedAt: new Date(now() - (fields.durationMs ?? 0)).toISOString(), transportRetries: retries.get(stepId) ?? [], criteria: [], actions: [], ...fields };
    retries.delete(stepId);
    runs.push(run);
    return run;
  };

  const requestView = (request: HttpRequest, sent: Record<string, string> | undefined): RequestView => {
    const shown = redactRequest({ ...request, headers: sent ?? request.headers }, values);
    const view: RequestView = { method: shown.method, url: printableLine(shown.url), headers: shown.headers };
    if (shown.body !== undefined) {
      const text = typeof shown.body === 'string' ? shown.body : (JSON.stringify(shown.body) ?? '');
      const body = bodyExcerpt(Buffer.from(text), text, options.bodyLimit, knownFor(request));
      if (body !== undefined) view.body = body;
    }
    return view;
  };
  const responseView = (request: HttpRequest, response: HttpResponse): ResponseView => {
    const known = knownFor(request);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      headers[name] = isSecretName(name, known.names) ? MASK : Array.isArray(value) ? value.map((one) => redactText(one, known)) : redactText(value, known);
    }
    const view: ResponseView = { status: response.status, statusText: STATUS_CODES[response.status] ?? '', url: redactText(redactUrl(response.url, known.names), known), headers };
    const type = response.headers['content-type'];
    if (type !== undefined) view.contentType = redactText(Array.isArray(type) ? (type[0] ?? '') : type, known);
    const body = bodyExcerpt(response.bytes, response.body, options.bodyLimit, known);
    if (body !== undefined) view.body = body;
    return view;
  };
  const criterionView = (criterion: CriterionExplanation, known: KnownSecrets): CriterionView => {
    const view: CriterionView = {
      source: printableLine(criterion.source, known),
      kind: criterion.kind,
      holds: criterion.holds ?? null,
      comparisons: criterion.comparisons.map((comparison) => {
        const one: ComparisonView = { source: printableLine(comparison.source, known), left: operandText(comparison.left, known, options.bodyLimit), holds: comparison.holds ?? null };
        if (comparison.op !== undefined) {
          one.op = comparison.op;
          one.right = operandText(comparison.right, known, options.bodyLimit);
        }
        if (comparison.error !== undefined) one.error = printableLine(comparison.error, known);
        return one;
      }),
    };
    if (criterion.error !== undefined) view.error = printableLine(criterion.error, known);
    return view;
  };

  const exchange = (stepId: string, exchange: StepExchange) => {
    const run = open.get(stepId);
    open.delete(stepId);
    if (run === undefined) return;
    const known = knownFor(exchange.request);
    const criteria = exchange.criteria?.() ?? [];
    run.criteria = criteria.map((criterion) => criterionView(criterion, known));
    if (!exchange.ok) run.explanation = failureLines({ ...exchange, criteria: () => criteria }, values, PLAIN);
  };
  const action = (stepId: string, note: ActionNote) => {
    const run = runs.findLast((one) => one.stepId === stepId);
    if (run === undefined) return;
    const known = { values };
    const view: ActionView = { name: printableLine(note.action), type: note.type, criteria: note.criteria.map((source) => printableLine(source, known)), line: actionLine(note, values, PLAIN).trim() };
    if (note.target !== undefined) view.target = note.target;
    if (note.retry !== undefined) view.retry = note.retry;
    if (note.limit !== undefined) view.limit = note.limit;
    if (note.delayMs !== undefined) view.delayMs = note.delayMs;
    if (note.limitReached) view.limitReached = true;
    run.actions.push(view);
  };

  return {
    subscribe(bus, plan, programs, workflows) {
      bus.on('request.dryRun', ({ stepId, request }) => {
        remember(request);
        add(stepId, { ok: false, status: 0, dryRun: true, request: requestView(request, undefined) });
      });
      bus.on('step.response', ({ stepId, request, response, ok, reason, checks }) => {
        remember(request, response?.requestHeaders);
        const run = add(stepId, { ok, status: response?.status ?? 0, dryRun: false, ...(response ? { durationMs: response.durationMs } : {}) });
        if (!ok && reason !== undefined) run.reason = printableLine(reason, knownFor(request));
        if (checks !== undefined) run.checks = checkView(checks, knownFor(request));
        run.request = requestView(request, response?.requestHeaders);
        if (response) run.response = responseView(request, response);
        open.set(stepId, run);
        options.onExchange?.({ run, request, response, error: response ? undefined : run.reason, known: knownFor(request) });
      });
      bus.on('step.failedEarly', ({ stepId, reason }) => add(stepId, { ok: false, status: 0, dryRun: false, reason: printableLine(reason, { values }) }));
      // Arazzo 1.1 asynchronous steps: a send or receive is the step's run (a launch is not: the receive is, at its join).
      bus.on('step.message', ({ stepId, action, channel, server, ok, reason, durationMs }) => {
        if (action === 'launch') return;
        const run = add(stepId, { ok, status: 0, dryRun: false, durationMs, message: { action, channel: printableLine(channel, { values }), server: printableLine(server, { values }) } });
        if (!ok && reason !== undefined) run.reason = printableLine(reason, { values });
      });
      // A nested workflow step (v2) is a step run of its own, after the runs of the steps it called.
      bus.on('call.ended', ({ stepId, ok, reason }) => add(stepId, reason === undefined ? { ok, status: 0, dryRun: false } : { ok, status: 0, dryRun: false, reason: printableLine(reason, { values }) }));
      bus.on('request.retry', ({ stepId, retry }) => retries.set(stepId, [...(retries.get(stepId) ?? []), { ...retry }]));
      bus.on('criteria.judged', ({ stepId, exchange: judged }) => exchange(stepId, judged));
      bus.on('action.fired', createActionNarrator(plan, programs, { action }, workflows));
    },
    runs(records) {
      return mergeRecords(runs, records, { values });
    },
    known: () => ({ values }),
  };
}

/** A check's view: every text from the server made printable and masked. */
function checkView(check: ResponseCheck, known: KnownSecrets): CheckView {
  const view: CheckView = {
    mode: check.mode,
    against: printableLine(check.against, known),
    mismatches: check.mismatches.map((mismatch) => {
      const one: ResponseMismatch & { line: string } = { check: mismatch.check, message: printableLine(mismatch.message, known), line: printableLine(mismatchLine(check, mismatch), known) };
      if (mismatch.pointer !== undefined) one.pointer = printableLine(mismatch.pointer, known);
      if (mismatch.keyword !== undefined) one.keyword = mismatch.keyword;
      return one;
    }),
    more: check.more,
  };
  if (check.notes.length > 0) view.notes = check.notes.map((note) => printableLine(note, known));
  return view;
}

/**
 * The captured runs in order, each with the outputs and `failedVia` of its entry in the run
 * record. Entries pair up in order by step id; a record with no captured run (a step the budget
 * stopped, a crash) gets a run of its own, and a captured run with no record (one that Ctrl-C
 * interrupted) keeps none.
 */
export function mergeRecords(runs: readonly StepRun[], records: readonly StepRecord[], known: KnownSecrets): StepRun[] {
  const merged: StepRun[] = [];
  let next = 0;
  for (const record of records) {
    // A step of a nested call is shown as `caller/step`.
    const at = runs.findIndex((run, index) => index >= next && (run.stepId === record.stepId || run.stepId.endsWith(`/${record.stepId}`)));
    if (at === -1) {
      merged.push({ run: 0, stepId: record.stepId, ok: false, status: record.status, dryRun: record.dryRun, transportRetries: [], criteria: [], actions: [], outputs: {} });
      continue;
    }
    merged.push(...runs.slice(next, at));
    const run = { ...runs[at]!, outputs: maskJson(record.outputs, known) as Record<string, unknown> };
    if (record.failedVia !== undefined) run.failedVia = record.failedVia;
    merged.push(run);
    next = at + 1;
  }
  merged.push(...runs.slice(next));
  return merged.map((run, index) => ordered(run, index + 1));
}

/** The run's fields in the order of docs/reports.md, numbered `n`; absent ones left out. */
function ordered(run: StepRun, n: number): StepRun {
  const { stepId, ok, status, dryRun, reason, failedVia, startedAt, durationMs, transportRetries, request, response, message, criteria, checks, actions, explanation, outputs } = run;
  const present = <T extends object>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
  return {
    run: n,
    stepId,
    ok,
    status,
    dryRun,
    ...present({ reason, failedVia, startedAt, durationMs }),
    transportRetries,
    ...present({ request, response, message }),
    criteria,
    ...present({ checks }),
    actions,
    ...present({ explanation, outputs }),
  };
}
