import type { RunStepInput, StepOutcome } from '../../machines/types.js';
import { ToolError } from '../errors/tool-error.js';
import type { ExpressionContext, RequestData, ResponseData } from '../expressions/context.js';
import type { XPathLibrary } from '../expressions/criterion-libraries.js';
import { UnresolvedExpressionError } from '../expressions/errors.js';
import { evaluateExpression } from '../expressions/evaluate-expression.js';
import { renderTemplate, soleExpression, type RenderOptions } from '../expressions/render-template.js';
import type { Template } from '../expressions/template-ast.js';
import type { Pipeline } from '../http/create-pipeline.js';
import { retryAfterMs } from '../http/retry-delay.js';
import { TransportError } from '../http/transport-error.js';
import { withMaskedCredentials } from '../http/masked-credentials.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { buildRequest } from '../openapi/build-request.js';
import { RequestBuildError } from '../openapi/errors.js';
import { applyReplacements, ReplacementError, replacesXml } from '../plan/apply-replacements.js';
import type { StepProgram } from '../plan/compile-steps.js';
import { evaluateCriteria, type CriteriaMiss } from '../plan/evaluate-criteria.js';
import { explainCriteria } from './explain-criteria.js';
import type { ResponseChecker } from './check-response.js';
import { checkReason } from '../observe/response-checks.js';
import type { StepExchange } from '../observe/explain-lines.js';
import { judgeCall, notGivenOptional, prepareCall, shownStepId } from './execute-call.js';
import { evaluateOutputs } from '../plan/output-values.js';
import type { StepReporter } from '../observe/reporter.js';
import { workflowsIn } from '../plan/workflows-view.js';
import { codeSpan } from '../output/code-span.js';
import { encodeFormValue } from '../openapi/query-string.js';
import { startStepTimeout, timeoutReason } from './step-timeout.js';
import type { AsyncSession } from './async-session.js';
import type { MessageStepRunner } from './message-step.js';

/** The runner of the workflow's asynchronous steps, loaded with its first one (a run without any never loads it). */
async function messageRunner(deps: StepExecutorDeps): Promise<MessageStepRunner> {
  const session = deps.asyncSession;
  if (session === undefined) throw new Error('an asynchronous step needs the run\'s async session');
  const { createMessageStepRunner } = await import('./message-step.js');
  return createMessageStepRunner({ session, reporter: deps.reporter, dryRun: deps.dryRun, programs: deps.programs, ...(deps.now ? { now: deps.now } : {}) });
}

export interface StepExecutorDeps {
  programs: StepProgram[];
  pipeline: Pipeline;
  dryRun: boolean;
  reporter: StepReporter;
  /** --verbose: hand every step's exchange to the reporter, not only failed ones. */
  verbose?: boolean;
  /** --report, --har, --junit: receives every sent request's exchange, with its criteria explained on demand (src/observe/report/). */
  onExchange?: (stepId: string, exchange: StepExchange) => void;
  /** Milliseconds since some origin; injected so tests and traces agree. */
  now?: () => number;
  /** --checks warn|fail: compares each response with the operation's declared responses (absent: off, or a dry run). */
  checkResponse?: ResponseChecker;
  /** Arazzo 1.1: the run's broker connections, for asynchronous steps (opened on first use). */
  asyncSession?: () => AsyncSession;
}

/** Runs one step body: render, build, send (or print, in dry-run), judge the success criteria, evaluate outputs. */
export type StepExecutor = (input: RunStepInput, signal: AbortSignal) => Promise<StepOutcome>;

/**
 * Creates the `runStep` actor's body. Failures of the step (an expression that resolves to
 * nothing, a transport error, unmet criteria) are outcomes, not exceptions; it throws only on bugs.
 */
export function createStepExecutor(deps: StepExecutorDeps): StepExecutor {
  const warnedSkipped = new Set<number>();
  // fontoxpath and xmldom, loaded the first time a step's XML body has replacements (v2 only).
  let xpath: Promise<XPathLibrary | undefined> | undefined;
  const xpathFor = (program: StepProgram) =>
    program.body?.replacements && replacesXml(program.body.replacements)
      ? (xpath ??= import('../expressions/criterion-libraries.js').then(async (m) => (await m.loadCriterionLibraries(['xpath'])).xpath))
      : undefined;
  // Arazzo 1.1 asynchronous steps, run by message-step.ts (made on the first one).
  let messages: Promise<MessageStepRunner> | undefined;
  return async (input, signal) => {
    const program = deps.programs[input.stepIndex]!;
    if (input.phase === 'call') return prepareCall(program, input, deps.dryRun, deps.reporter);
    if (input.phase === 'judge') return judgeCall(program, input, deps.dryRun, deps.reporter);
    // Progress lines name a step of a nested call with the steps that called it: `callLogin/doLogin`.
    const shown = shownStepId(input, program.stepId);
    const base: ExpressionContext = { inputs: input.inputs, steps: input.steps, workflows: workflowsIn(program.scope?.workflowKeys, input.workflows), sourceDescriptions: program.scope?.sourceDescriptions, components: program.scope?.components, self: program.scope?.self };
    if (program.skippedCriteria.length > 0 && !warnedSkipped.has(program.index)) {
      warnedSkipped.add(program.index);
      for (const skipped of program.skippedCriteria) deps.reporter.warn(skipped);
    }
    if (program.async) return (await (messages ??= messageRunner(deps)))(program, input, base, shown, signal, await xpathFor(program));

    let request: HttpRequest;
    let requestData: RequestData;
    try {
      ({ request, requestData } = prepareRequest(program, base, deps.dryRun, deps.reporter, deps.verbose === true, await xpathFor(program)));
    } catch (error) {
      if (error instanceof UnresolvedPartError || error instanceof RequestBuildError || error instanceof ReplacementError) {
        const reason = `the request could not be built: ${error.message}${missingInputHint(error, input.via)}`;
        // A dry run shows every step: it reports the problem and moves on, as it would after printing.
        if (deps.dryRun) {
          deps.reporter.warn(`step "${shown}": ${reason}`);
          return { statusCode: 0, ok: false, dryRun: true, outputs: {}, reason };
        }
        deps.reporter.stepFailedEarly(shown, reason);
        return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason };
      }
      throw error;
    }

    if (deps.dryRun) {
      const masked = withMaskedCredentials(request);
      deps.reporter.dryRun(shown, { ...masked, url: readableUnresolved(masked.url) });
      return { statusCode: 0, ok: false, dryRun: true, outputs: {}, data: { request: requestData } };
    }

    let response: HttpResponse;
    const limit = program.timeoutMs === undefined ? undefined : startStepTimeout(signal, program.timeoutMs);
    try {
      response = await deps.pipeline.send(request, { signal: limit?.signal ?? signal, onRetry: (retry) => deps.reporter.transportRetry(shown, retry) });
    } catch (error) {
      // A transport error, or the bound API's credentials cannot be applied (not logged in, an unset
      // token variable): the step fails with that message and its fix, not as an internal error.
      if (!(error instanceof TransportError) && !(error instanceof ToolError)) throw error;
      const reason = limit?.expired() ? timeoutReason(program.timeoutMs!) : error instanceof ToolError && error.hint ? `${error.message} (${error.hint})` : error.message;
      deps.reporter.stepDone(shown, request, undefined, false, reason);
      if (deps.verbose) deps.reporter.exchange(shown, { request, ok: false });
      deps.onExchange?.(shown, { request, ok: false });
      return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason, data: { request: requestData } };
    } finally {
      limit?.clear();
    }

    const responseData: ResponseData = { statusCode: response.status, headers: response.headers, body: response.body };
    const ctx: ExpressionContext = {
      inputs: base.inputs,
      steps: base.steps,
      workflows: base.workflows,
      sourceDescriptions: base.sourceDescriptions,
      components: base.components,
      self: base.self,
      request: requestData,
      response: responseData,
      statusCode: response.status,
      url: request.url,
      method: request.method,
    };
    const verdict = judgeResponse(program, ctx, response.status);
    const checks = deps.checkResponse ? await deps.checkResponse(program, response) : undefined;
    // --checks fail: a mismatch fails a step its criteria passed (a failed criterion stays the reason).
    const reason = verdict.reason ?? (checks?.mode === 'fail' && checks.mismatches.length > 0 ? checkReason(checks) : undefined);
    const ok = reason === undefined;
    const outputs = ok ? evaluateOutputs(program.outputs, ctx) : {};
    deps.reporter.stepDone(shown, request, response, ok, reason, checks);
    // The explanation is gathered only for a failure (or --verbose, or a report), and its operands only when shown.
    if (!ok || deps.verbose || deps.onExchange) {
      const missIndex = verdict.miss === undefined ? undefined : program.successCriteria.indexOf(verdict.miss.criterion);
      const exchange: StepExchange = { request, response, ok, criteria: () => explainCriteria(program.successCriteria, ctx, missIndex), ...(checks ? { checks } : {}) };
      if (!ok || deps.verbose) deps.reporter.exchange(shown, exchange);
      deps.onExchange?.(shown, exchange);
    }
    const outcome: StepOutcome = {
      statusCode: response.status,
      ok,
      dryRun: false,
      outputs,
      data: { request: requestData, response: responseData },
    };
    if (!program.dataRead) outcome.keepData = false;
    if (reason !== undefined) outcome.reason = reason;
    const retryAfter = retryAfterMs(response.headers['retry-after']);
    if (retryAfter !== undefined) outcome.retryAfterHeaderSeconds = Math.ceil(retryAfter / 1000);
    return outcome;
  };
}

function prepareRequest(program: StepProgram, ctx: ExpressionContext, dryRun: boolean, reporter: StepReporter, verbose: boolean, xpath?: XPathLibrary): { request: HttpRequest; requestData: RequestData } {
  const leaveOut = notGivenOptional(program, ctx.inputs);
  const mode: RenderOptions = dryRun ? KEEP_UNRESOLVED : THROW_UNRESOLVED;
  // An input the workflow does not require, not given: the part made of it is left out (a --verbose note says so).
  const leftOut = (what: string, source: string) => {
    if (verbose) reporter.info(`step "${program.stepId}": ${source} was not given and the workflow does not require it, so ${what} is left out`);
  };
  const parameters: Array<{ name: string; in?: string; value: unknown }> = [];
  const notGiven = (value: Template) => {
    const sole = leaveOut && soleExpression(value);
    return sole && leaveOut(sole.expression) && evaluateExpression(sole.expression, ctx) === undefined ? sole.expression.source : undefined;
  };
  for (const p of program.parameters) {
    const missing = p.in === 'path' ? undefined : notGiven(p.value);
    if (missing !== undefined) {
      leftOut(parameterPart(p), missing);
      continue;
    }
    try {
      parameters.push({ name: p.name, in: p.in, value: renderPart(p.value, ctx, p.in === 'querystring' ? querystringMode(p.value, mode) : mode, parameterPart, p) });
    } catch (error) {
      if (!(error instanceof UnresolvedPartError)) throw error;
      // A parameter the operation does not require is left out when its value resolves to nothing.
      if (!p.optional) throw error;
      reporter.warn(`step "${program.stepId}": ${error.message}; the operation does not require it, so it is not sent`);
    }
  }
  const partMode: RenderOptions = leaveOut ? { ...mode, leaveOut, leftOut: (pointer, source) => leftOut(`request body member ${pointer}`, source) } : mode;
  const body = program.body
    ? { contentType: program.body.contentType, payload: renderPart(program.body.payload, ctx, partMode, () => 'request body', undefined) }
    : undefined;
  const replacements = program.body?.replacements;
  if (body && replacements) {
    const values: Array<{ target: string; value: unknown; type?: string; version?: string }> = [];
    replacements.items.forEach(({ target, value, ...how }, i) => {
      const missing = notGiven(value);
      if (missing !== undefined) return leftOut(`the replacement of ${JSON.stringify(target)}`, missing);
      values.push({ target, ...how, value: renderPart(value, ctx, mode, () => `replacement ${i} (target ${JSON.stringify(target)})`, undefined) });
    });
    body.payload = applyReplacements(body.payload, values, replacements.contentType, xpath, replacements.jsonpath);
  }
  const request = buildRequest(program.operation!, { baseUrl: program.baseUrl!, parameters, body });
  if (program.source?.auth) request.auth = program.source.auth;
  const path: Record<string, string> = {};
  for (const p of parameters) if (p.in === 'path') path[p.name] = typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
  const requestData = { url: request.url, method: request.method, headers: request.headers, path, body: body?.payload } as RequestData;
  // Parsed from the URL only when an expression reads `$request.query…` (rarely): a URL object and
  // a query map per step otherwise went straight to the garbage collector.
  let query: Record<string, string> | undefined;
  Object.defineProperty(requestData, 'query', {
    enumerable: true,
    configurable: true,
    get: () => (query ??= Object.fromEntries(new URL(request.url).searchParams)),
  });
  return { request, requestData };
}

/** Renders one part of a request; an unresolved expression is reported as `<part>: $expr resolved to nothing` (`part(subject)` names it). */
function renderPart<T>(template: Template, ctx: ExpressionContext, mode: RenderOptions, part: (subject: T) => string, subject: T): unknown {
  try {
    return renderTemplate(template, ctx, mode);
  } catch (error) {
    if (!(error instanceof UnresolvedExpressionError)) throw error;
    const at = error.pointer ? ` at ${error.pointer}` : '';
    throw new UnresolvedPartError(`${part(subject)}${at}: ${error.expression} resolved to nothing`, error.expression);
  }
}

/** A querystring's form text (`a={$x}`) percent-encodes the values embedded in it; its JSON form embeds them as written. */
function querystringMode(value: Template, mode: RenderOptions): RenderOptions {
  const first = value.kind === 'interpolation' ? value.parts[0] : value.kind === 'literal' ? value.value : undefined;
  const json = typeof first === 'string' && /^\s*[{[]/.test(first);
  return json ? mode : { ...mode, embed: encodeFormValue };
}

// Named only when rendering fails: a message per parameter per step went unread otherwise.
const parameterPart = (p: { name: string; in?: string }): string => `parameter "${p.name}"${p.in ? ` (${p.in})` : ''}`;
const KEEP_UNRESOLVED: RenderOptions = { onUnresolved: 'keep' };
const THROW_UNRESOLVED: RenderOptions = { onUnresolved: 'throw' };

/** An expression in a parameter or the body resolved to nothing; the step fails before sending. */
class UnresolvedPartError extends Error {
  readonly code = 'UNRESOLVED_EXPRESSION' as const;
  constructor(
    message: string,
    readonly expression: string,
  ) {
    super(message);
    this.name = 'UnresolvedPartError';
  }
}

/**
 * Why the step failed, judged on its response (success criteria all hold; without criteria, a 2xx
 * status is success), or no reason when it succeeded; and the first criterion that did not hold.
 */
function judgeResponse(program: StepProgram, ctx: ExpressionContext, status: number): { reason?: string; miss?: CriteriaMiss } {
  let reason: string | undefined;
  let miss: CriteriaMiss | undefined;
  if (program.successCriteria.length === 0) {
    // Criteria of a type the profile does not run were skipped (with a warning): say so, not that there were none.
    const why = program.skippedCriteria.length > 0 ? (program.skippedNote ?? 'no successCriteria') : 'no successCriteria';
    if (status < 200 || status > 299) reason = `HTTP ${status} (${why}, so only 2xx succeeds)`;
  } else {
    miss = evaluateCriteria(program.successCriteria, ctx);
    if (miss?.error !== undefined) reason = `success criterion ${codeSpan(miss.criterion.source)}: ${miss.error}`;
    else if (miss) reason = `HTTP ${status}: success criterion ${codeSpan(miss.criterion.source)} does not hold`;
  }
  if (reason && (status === 401 || status === 403) && program.source) reason = credentialsHint(program, ctx, status) ?? reason;
  return { reason, miss };
}

/** A 401/403 reason that says how to send credentials, when tool sent none; undefined when it did. */
function credentialsHint(program: StepProgram, ctx: ExpressionContext, status: number): string | undefined {
  const source = program.source!;
  const name = source.name;
  const ownAuthorization = Object.keys(ctx.request?.headers ?? {}).some((header) => header.toLowerCase() === 'authorization');
  if (source.reason === 'synthetic') {
    const sent = ownAuthorization ? 'so only the Authorization header the step sets was sent' : 'so no credentials were sent';
    return (
      `step "${program.stepId}" got HTTP ${status} from source "${name}", which is unbound, ${sent}. ` +
      `Add the API and log in: tool api add ${name} ${program.baseUrl ?? '<base-url>'} && tool auth login ${name}`
    );
  }
  // An API without an auth scheme still has a hook (it guards against a stray stored credential) that describes itself as "none".
  const credentials = source.auth !== undefined && source.auth.describe() !== 'none';
  if (credentials || source.api === undefined || ownAuthorization) return undefined;
  const api = source.api.name;
  return `step "${program.stepId}" got HTTP ${status} from source "${name}": API "${api}" has no credentials: tool auth login ${api}`;
}

/**
 * In dry-run, expressions that cannot resolve yet (earlier steps' outputs) are kept as written and
 * end up percent-encoded in the URL; show them as `{$steps.a.outputs.b}` instead of `%24steps…`.
 */
function readableUnresolved(url: string): string {
  return url.replace(/%24[A-Za-z][^/?&#=]*/g, (encoded) => {
    try {
      return `{${decodeURIComponent(encoded)}}`;
    } catch {
      return encoded;
    }
  });
}

/** For an input the user did not give, say how to give it: on the command line, or (in a nested call) as a parameter of the calling step. */
function missingInputHint(error: Error, via: readonly string[]): string {
  if (!(error instanceof UnresolvedPartError)) return '';
  const input = /^\$(?:workflow\.)?inputs\.([^#]+)/.exec(error.expression);
  if (!input) return '';
  return via.length > 0 ? ` (the calling step "${via[via.length - 1]}" must pass it as a parameter named "${input[1]}")` : ` (give it with --input ${input[1]}=<value>)`;
}
