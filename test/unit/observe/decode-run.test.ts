import { describe, expect, it } from '@jest/globals';
import { createActor, waitFor } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import type { StepOutcome } from '../../../machines/types.js';
import type { HttpRequest } from '../../../src/http/types.js';
import { executorEvents, inspectionDecoder } from '../../../src/observe/decode-run.js';
import { createRunEvents, MACHINE_EVENTS, type RunEvent, type RunEvents } from '../../../src/observe/run-events.js';
import { action, judgeOf, step, withRunner } from '../../machines/harness.js';

// a: 503 then 200 (one retry, no wait); b: 200.
const plan = {
  workflowId: 'wf',
  steps: [step('a', { onFailure: [action('retry', { name: 'busy', criteriaId: 0, retryLimit: 2 })] }), step('b')],
};

function machineFor(script: Record<string, number[]>) {
  const seen = new Map<string, number>();
  return withRunner(compileWorkflow(plan, judgeOf([(status) => status === 503])), async (input): Promise<StepOutcome> => {
    const n = seen.get(input.stepId) ?? 0;
    seen.set(input.stepId, n + 1);
    const statusCode = script[input.stepId]![Math.min(n, script[input.stepId]!.length - 1)]!;
    return { statusCode, ok: statusCode === 200, dryRun: false, outputs: {}, ...(statusCode === 200 ? {} : { reason: `HTTP ${statusCode}` }) };
  });
}

/** Runs the machine with the decoder feeding `bus`; resolves with the final context. */
async function run(bus: RunEvents, script: Record<string, number[]> = { a: [503, 200], b: [200] }) {
  const inspect = inspectionDecoder(bus);
  const actor = createActor(machineFor(script), inspect ? { input: { inputs: {}, maxSteps: 10 }, inspect } : { input: { inputs: {}, maxSteps: 10 } });
  actor.start();
  const done = await waitFor(actor, (snapshot) => snapshot.status === 'done');
  return done.context;
}

/** A line per event: its type and the fields that tell the order apart. */
function line(event: RunEvent): string {
  switch (event.type) {
    case 'workflow.started':
      return `${event.type} ${event.state} top=${event.top} runs=${event.context.runs}`;
    case 'state.changed':
      return `${event.type} ${event.from || '(root)'} -> ${event.state} on ${event.event}${event.outcome ? ` (${event.outcome.statusCode})` : ''} runs=${event.context.runs} retries=${event.context.retries}`;
    case 'action.fired':
      return `${event.type} ${event.stateKey} ${event.meta.action} ${event.meta.actionType} ${event.meta.outcome} retries=${event.context.retries}`;
    case 'step.started':
      return `${event.type} ${event.stepIndex} ${event.stepId}`;
    case 'retry.waiting':
      return `${event.type} ${event.stateKey} retry ${event.retries} after ${event.delayMs} ms`;
    case 'workflow.finished':
      return `${event.type} ${event.state} ${event.status}`;
    default:
      return event.type;
  }
}

function listenAll(bus: RunEvents, types: readonly RunEvent['type'][]): string[] {
  const lines: string[] = [];
  for (const type of types) bus.on(type, (event) => lines.push(line(event)));
  return lines;
}

describe('the run decoder', () => {
  it('turns a machine run into domain events, in order', async () => {
    const bus = createRunEvents();
    const lines = listenAll(bus, ['workflow.started', 'step.started', 'action.fired', 'state.changed', 'retry.waiting', 'workflow.finished']);
    await run(bus);
    expect(lines).toEqual([
      'step.started 0 a',
      'workflow.started s0_a.calling top=true runs=1',
      'action.fired s0_a busy retry fired retries=1',
      'state.changed s0_a.calling -> s0_a.backoff on runStep.done (503) runs=1 retries=1',
      'retry.waiting s0_a retry 1 after 0 ms',
      // The run event goes out after the transition that sends it (XState defers sendTo).
      'state.changed s0_a.backoff -> s0_a.calling on xstate.after.retryDelay.workflow.s0_a.backoff runs=2 retries=1',
      'step.started 0 a',
      'state.changed s0_a.calling -> s1_b on runStep.done (200) runs=3 retries=0',
      'step.started 1 b',
      'state.changed s1_b -> succeeded on runStep.done (200) runs=3 retries=0',
      'workflow.finished succeeded done',
    ]);
  });

  it('builds only the events something listens to', async () => {
    const bus = createRunEvents();
    const lines = listenAll(bus, ['action.fired']);
    await run(bus);
    expect(lines).toEqual(['action.fired s0_a busy retry fired retries=1']);
  });

  it('turns inspection off when nothing listens to the machine', () => {
    const bus = createRunEvents();
    bus.on('step.response', () => undefined);
    expect(inspectionDecoder(bus)).toBeUndefined();
    for (const type of MACHINE_EVENTS) {
      const one = createRunEvents();
      one.on(type, () => undefined);
      expect(inspectionDecoder(one)).toBeDefined();
    }
  });

  it('gives each machine actor and system its own number, the same on every event', async () => {
    const bus = createRunEvents();
    const refs = new Set<string>();
    bus.on('state.changed', (event) => refs.add(`${event.actor}/${event.system}/${event.top}`));
    bus.on('workflow.started', (event) => refs.add(`${event.actor}/${event.system}/${event.top}`));
    await run(bus);
    expect([...refs]).toEqual(['1/1/true']);
  });

  it("turns the executor's callbacks into events, and hands the exchange over only when something takes it", () => {
    const bus = createRunEvents();
    const seen: RunEvent[] = [];
    for (const type of ['step.response', 'step.failedEarly', 'request.retry', 'call.ended', 'step.explained', 'warning'] as const) bus.on(type, (event) => seen.push(event));
    const quiet = executorEvents(bus);
    expect(quiet.onExchange).toBeUndefined();
    const request: HttpRequest = { method: 'GET', url: 'https://api.test/pets', headers: {} };
    quiet.reporter.stepDone('a', request, undefined, false, 'connection refused');
    quiet.reporter.transportRetry('a', { attempt: 1, delayMs: 10, reason: 'ECONNRESET' } as never);
    quiet.reporter.stepFailedEarly('b', 'no value for $inputs.id');
    quiet.reporter.callDone('c', 'child', true);
    quiet.reporter.exchange('a', { request, ok: false });
    quiet.reporter.warn('careful');
    expect(seen.map((event) => event.type)).toEqual(['step.response', 'request.retry', 'step.failedEarly', 'call.ended', 'step.explained', 'warning']);
    expect(seen[0]).toEqual({ type: 'step.response', stepId: 'a', request, ok: false, reason: 'connection refused' });
    expect(seen[3]).toEqual({ type: 'call.ended', stepId: 'c', workflowId: 'child', ok: true });

    const judged: string[] = [];
    bus.on('criteria.judged', (event) => judged.push(event.stepId));
    const reporting = executorEvents(bus);
    reporting.onExchange?.('a', { request, ok: true });
    expect(judged).toEqual(['a']);
  });
});
