/**
 * Runs Arazzo 1.1 asynchronous steps (AsyncAPI send and receive) through the run's AsyncSession.
 * A send publishes the step's payload with its header parameters as message headers; it is done
 * when the transport has taken the message. A receive waits for the first message on its channel
 * (subscribed before the workflow's first message step, so an early reply is kept) whose
 * correlation value is the one the step expects, within its timeout; the message's
 * `$message.payload` and `$message.header.<name>` then decide its success criteria (none: a
 * message received is a success). A receive in flight is launched (`launch`: started, answered at
 * once) and its outcome taken at its join (compile-workflow.ts).
 */
import type { RunStepInput, StepOutcome } from '../../machines/types.js';
import { crashOutcome } from '../../machines/step-runner.js';
import { AsyncTimeoutError } from '../async/async-errors.js';
import { correlatesWith } from '../async/correlation-value.js';
import type { Message } from '../async/message.js';
import { ToolError } from '../errors/tool-error.js';
import type { ExpressionContext } from '../expressions/context.js';
import { UnresolvedExpressionError } from '../expressions/errors.js';
import { renderTemplate } from '../expressions/render-template.js';
import { codeSpan } from '../output/code-span.js';
import type { XPathLibrary } from '../expressions/criterion-libraries.js';
import { applyReplacements, ReplacementError } from '../plan/apply-replacements.js';
import type { StepProgram } from '../plan/compile-steps.js';
import type { AsyncProgram } from '../plan/compile-async-step.js';
import { evaluateCriteria } from '../plan/evaluate-criteria.js';
import { evaluateOutputs } from '../plan/output-values.js';
import type { StepReporter } from '../observe/reporter.js';
import type { AsyncSession } from './async-session.js';

export interface MessageStepDeps {
  session: () => AsyncSession;
  reporter: StepReporter;
  dryRun: boolean;
  /** The workflow's programs: their receive channels are subscribed before its first message step. */
  programs: readonly StepProgram[];
  now?: () => number;
}

/** Runs a message step's phase: `launch` starts a receive in flight; any other run sends, or receives (taking a launched receive's outcome). */
export type MessageStepRunner = (program: StepProgram, input: RunStepInput, ctx: ExpressionContext, shown: string, signal: AbortSignal, xpath?: XPathLibrary) => Promise<StepOutcome>;

export function createMessageStepRunner(deps: MessageStepDeps): MessageStepRunner {
  const now = deps.now ?? (() => performance.now());
  // Receives in flight, by the nested call that runs them and their step; `cancel` ends the wait of one launched again before its join (a goto back).
  const launched = new Map<string, { outcome: Promise<StepOutcome>; cancel: AbortController }>();
  let subscribed: Promise<unknown> | undefined;
  /**
   * Subscribes every receive channel of the workflow, once, before its first message step, so
   * that a reply to its sends is not lost. A channel that cannot be subscribed now is left to
   * its receive step (the session keeps no failure: that step tries again and says why); it does
   * not stop a send to another broker.
   */
  const subscribeAll = () =>
    (subscribed ??= Promise.allSettled(
      deps.programs.flatMap((program) => (program.async?.action === 'receive' ? [deps.session().subscription(program.async.url, program.async.auth, program.async.channel, program.async.protocolVersion)] : [])),
    ));

  const receive = async (program: StepProgram, message: AsyncProgram, ctx: ExpressionContext, shown: string, signal: AbortSignal, started: number): Promise<StepOutcome> => {
    const deadline = started + message.timeoutMs;
    let expected: unknown;
    try {
      expected = message.correlation ? renderTemplate(message.correlation.value, ctx) : undefined;
    } catch (error) {
      if (!(error instanceof UnresolvedExpressionError)) throw error;
      return failedEarly(deps.reporter, shown, `its correlationId ${codeSpan(error.expression)} resolved to nothing`);
    }
    const session = deps.session();
    let received: Message;
    try {
      // The step's timeout covers connecting and subscribing too.
      await within(subscribeAll(), deadline - now(), message);
      const subscription = await within(session.subscription(message.url, message.auth, message.channel, message.protocolVersion), deadline - now(), message);
      const match = message.correlation ? correlatesWith(message.correlation.location, expected) : () => true;
      received = await subscription.next(match, { timeoutMs: Math.max(0, deadline - now()), signal: AbortSignal.any([signal, session.signal]) });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      // The run is over (it failed elsewhere, or was interrupted): a wait it ended is not this step's news.
      if (session.signal.aborted || signal.aborted) return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason: error.message };
      // The wait's own timeout counts what was left of the step's: the reason names the step's whole timeout.
      const reason = error instanceof AsyncTimeoutError ? `no matching message on channel "${message.channel}" within ${message.timeoutMs} ms${message.correlation ? ` with correlation id ${JSON.stringify(expected)}` : ''}` : error.message;
      deps.reporter.messageDone(shown, { action: 'receive', channel: message.channel, server: shownUrl(message.url), ok: false, reason, durationMs: now() - started });
      return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason };
    }
    return judged(program, { ...ctx, message: { headers: received.headers, payload: received.payload } }, message, 'receive', shown, now() - started);
  };

  const judged = (program: StepProgram, ctx: ExpressionContext, message: AsyncProgram, action: 'send' | 'receive', shown: string, durationMs: number): StepOutcome => {
    const miss = program.successCriteria.length === 0 ? undefined : evaluateCriteria(program.successCriteria, ctx);
    const reason = miss === undefined ? undefined : miss.error !== undefined ? `success criterion ${codeSpan(miss.criterion.source)}: ${miss.error}` : `success criterion ${codeSpan(miss.criterion.source)} does not hold for the message`;
    const ok = reason === undefined;
    deps.reporter.messageDone(shown, { action, channel: message.channel, server: shownUrl(message.url), ok, ...(reason === undefined ? {} : { reason }), durationMs });
    const outcome: StepOutcome = { statusCode: 0, ok, dryRun: false, outputs: ok ? evaluateOutputs(program.outputs, ctx) : {}, data: { message: ctx.message } };
    if (reason !== undefined) outcome.reason = reason;
    return outcome;
  };

  const send = async (program: StepProgram, message: AsyncProgram, ctx: ExpressionContext, shown: string, signal: AbortSignal, started: number, xpath?: XPathLibrary): Promise<StepOutcome> => {
    let payload: unknown;
    const headers: Record<string, string> = {};
    try {
      payload = program.body ? renderTemplate(program.body.payload, ctx) : undefined;
      const replacements = program.body?.replacements;
      if (replacements) payload = applyReplacements(payload, replacements.items.map(({ target, value }) => ({ target, value: renderTemplate(value, ctx) })), replacements.contentType, xpath);
      for (const header of message.headers) {
        const value = renderTemplate(header.value, ctx);
        headers[header.name] = typeof value === 'string' ? value : JSON.stringify(value);
      }
    } catch (error) {
      if (error instanceof UnresolvedExpressionError) return failedEarly(deps.reporter, shown, `the message could not be built: ${codeSpan(error.expression)} resolved to nothing`);
      if (error instanceof ReplacementError) return failedEarly(deps.reporter, shown, `the message could not be built: ${error.message}`);
      throw error;
    }
    if (deps.dryRun) {
      deps.reporter.info(`${shown}: would send on channel ${message.channel} (${shownUrl(message.url)})${message.headers.length > 0 ? ` with headers ${Object.keys(headers).join(', ')}` : ''}`);
      return { statusCode: 0, ok: false, dryRun: true, outputs: {} };
    }
    try {
      const deadline = started + message.timeoutMs;
      await within(subscribeAll(), deadline - now(), message);
      const transport = await within(deps.session().transport(message.url, message.auth, message.protocolVersion), deadline - now(), message);
      await transport.publish(message.channel, payload, { ...(message.contentType === undefined ? {} : { contentType: message.contentType }), headers, signal: AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, Math.ceil(deadline - now())))]) });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      deps.reporter.messageDone(shown, { action: 'send', channel: message.channel, server: shownUrl(message.url), ok: false, reason: error.message, durationMs: now() - started });
      return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason: error.message };
    }
    // `$message` in a send step is the message it sent.
    return judged(program, { ...ctx, message: { headers, payload } }, message, 'send', shown, now() - started);
  };

  return async (program, input, ctx, shown, signal, xpath) => {
    const message = program.async!;
    const key = `${input.via.join('/')}\n${input.stepIndex}`;
    const started = now();
    if (message.action === 'send') return send(program, message, ctx, shown, signal, started, xpath);
    if (deps.dryRun) {
      if (input.phase !== 'launch') deps.reporter.info(`${shown}: would wait for a message on channel ${message.channel} (${shownUrl(message.url)})${message.correlation ? ' matching its correlationId' : ''}`);
      return { statusCode: 0, ok: false, dryRun: true, outputs: {} };
    }
    if (input.phase === 'launch') {
      // In flight: the wait runs on its own signal (the step runner's is for the run in progress; the session's ends it with the run), and is taken at the join.
      // Launched again before its join (a goto back): the earlier wait ends, so that it does not take the message meant for this one.
      launched.get(key)?.cancel.abort();
      const cancel = new AbortController();
      // A bug in the wait is the step's crash at the join, not an unhandled rejection.
      launched.set(key, { outcome: receive(program, message, ctx, shown, cancel.signal, started).catch(crashOutcome), cancel });
      deps.reporter.messageDone(shown, { action: 'launch', channel: message.channel, server: shownUrl(message.url), ok: true, durationMs: 0 });
      return { statusCode: 0, ok: true, dryRun: false, outputs: {} };
    }
    const pending = launched.get(key);
    if (pending) {
      launched.delete(key);
      return pending.outcome;
    }
    return receive(program, message, ctx, shown, signal, started);
  };
}

/** `work`, unless `ms` pass first: then an ASYNC_TIMEOUT naming the step's timeout (connecting to a broker counts against it). */
async function within<T>(work: Promise<T>, ms: number, message: AsyncProgram): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolError('ASYNC_TIMEOUT', `no connection to ${shownUrl(message.url)} for channel "${message.channel}" within the step's timeout of ${message.timeoutMs} ms`)), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function failedEarly(reporter: StepReporter, shown: string, reason: string): StepOutcome {
  reporter.stepFailedEarly(shown, reason);
  return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason };
}

/** A broker URL as printed: without a user name or password. */
function shownUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
