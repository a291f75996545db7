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
  // Receives in flight, by the nested call that runs them and their step.
  const launched = new Map<string, Promise<StepOutcome>>();
  let subscribed: Promise<void> | undefined;
  /** Subscribes every receive channel of the workflow, once, before its first message step. */
  const subscribeAll = () =>
    (subscribed ??= Promise.all(
      deps.programs.flatMap((program) => (program.async?.action === 'receive' ? [deps.session().subscription(program.async.url, program.async.auth, program.async.channel, program.async.protocolVersion)] : [])),
    ).then(() => undefined));

  const receive = async (program: StepProgram, message: AsyncProgram, ctx: ExpressionContext, shown: string, signal: AbortSignal, started: number): Promise<StepOutcome> => {
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
      await subscribeAll();
      const subscription = await session.subscription(message.url, message.auth, message.channel, message.protocolVersion);
      const match = message.correlation ? correlatesWith(message.correlation.location, expected) : () => true;
      received = await subscription.next(match, { timeoutMs: message.timeoutMs, signal: AbortSignal.any([signal, session.signal]) });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      const reason = error.code === 'ASYNC_TIMEOUT' && message.correlation ? `${error.message} with correlation id ${JSON.stringify(expected)}` : error.message;
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
      await subscribeAll();
      const transport = await deps.session().transport(message.url, message.auth, message.protocolVersion);
      await transport.publish(message.channel, payload, { ...(message.contentType === undefined ? {} : { contentType: message.contentType }), headers, signal: AbortSignal.any([signal, AbortSignal.timeout(message.timeoutMs)]) });
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
      // In flight: the wait runs on the session's signal (the step runner's is for the run in progress), and is taken at the join.
      const session = deps.session();
      // A bug in the wait is the step's crash at the join, not an unhandled rejection.
      launched.set(key, receive(program, message, ctx, shown, session.signal, started).catch(crashOutcome));
      deps.reporter.messageDone(shown, { action: 'launch', channel: message.channel, server: shownUrl(message.url), ok: true, durationMs: 0 });
      return { statusCode: 0, ok: true, dryRun: false, outputs: {} };
    }
    const pending = launched.get(key);
    if (pending) {
      launched.delete(key);
      return pending;
    }
    return receive(program, message, ctx, shown, signal, started);
  };
}

function failedEarly(reporter: StepReporter, shown: string, reason: string): StepOutcome {
  reporter.stepFailedEarly(shown, reason);
  return { statusCode: 0, ok: false, dryRun: false, outputs: {}, reason };
}

/** A broker URL as printed: without a user name or password. */
function shownUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
