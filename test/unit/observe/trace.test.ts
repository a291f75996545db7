import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createActor } from 'xstate';
import { compileWorkflow } from '../../../machines/compile-workflow.js';
import type { WorkflowContext, WorkflowPlan } from '../../../machines/types.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import type { ToolError } from '../../../src/errors/tool-error.js';
import type { HttpRequest, HttpResponse } from '../../../src/http/types.js';
import type { Reporter } from '../../../src/observe/reporter.js';
import { createTracer, openTraceFile, TraceWriteError, type TraceLine } from '../../../src/observe/trace.js';
import { Collector } from '../../cli/run-tool.js';
import { action, judgeOf, step } from '../../machines/harness.js';

/** A clock that advances 1.23456 ms per reading, so `t` is predictable. */
function fakeClock(): () => number {
  let now = 1000;
  return () => (now += 1.23456);
}

function linesOf(text: string): TraceLine[] {
  return text.trim().split('\n').map((line) => JSON.parse(line) as TraceLine);
}

const silent: Reporter = {
  warn: () => undefined,
  info: () => undefined,
  dryRun: () => undefined,
  stepDone: () => undefined,
  stepFailedEarly: () => undefined,
  messageDone: () => undefined,
  callDone: () => undefined,
  exchange: () => undefined,
  transportRetry: () => undefined,
  action: () => undefined,
  workflowFailed: () => undefined,
};

// a: 503 then 200 (a retry); b: 409 sends it back to a by a goto once, then 200.
const plan: WorkflowPlan = {
  workflowId: 'wf',
  steps: [
    step('a', { onFailure: [action('retry', { name: 'busy', criteriaId: 0, label: 'onFailure: busy (retry x1) [$statusCode == 503]' })] }),
    step('b', { onFailure: [action('goto', { name: 'again', targetIndex: 0, label: 'onFailure: again (goto a)' })] }),
  ],
};

async function traceRun(script: Record<string, number[]>): Promise<{ lines: TraceLine[]; context: WorkflowContext }> {
  const out = new Collector();
  const tracer = createTracer(out, plan, { maxSteps: 50, now: fakeClock() });
  const seen = new Map<string, number>();
  const machine = compileWorkflow(plan, judgeOf([(s) => s === 503]), async (input) => {
    const n = seen.get(input.stepId) ?? 0;
    seen.set(input.stepId, n + 1);
    const statuses = script[input.stepId] ?? [200];
    const status = statuses[Math.min(n, statuses.length - 1)]!;
    return { statusCode: status, ok: status < 400, dryRun: false, outputs: {} };
  });
  const actor = createActor(machine, { input: { inputs: { token: 's3cret' }, maxSteps: 50 }, inspect: tracer.inspect });
  await new Promise<void>((resolve) => {
    actor.subscribe({ complete: resolve });
    actor.start();
  });
  const context = actor.getSnapshot().context;
  await tracer.finish(context, false);
  return { lines: linesOf(out.text), context };
}

describe('createTracer', () => {
  it('writes the states of a run with a retry and a goto in order', async () => {
    const { lines } = await traceRun({ a: [503, 200, 200], b: [409, 200] });
    const states = lines.filter((l) => l.type === 'state').map((l) => l.state);
    expect(states).toEqual([
      's0_a.calling',
      's0_a.backoff', // runStep.done: the retry action, in the same transition
      's0_a.calling',
      's1_b', // no chain on the success side: straight to the next step
      's0_a.calling', // runStep.done: the goto action
      's1_b',
      'succeeded',
    ]);
  });

  it('writes a start line, an action line per Arazzo action taken, and an end line', async () => {
    const { lines } = await traceRun({ a: [503, 200, 200], b: [409, 200] });
    expect(lines[0]).toEqual({ v: 1, t: 0, type: 'start', workflowId: 'wf', steps: 2, maxSteps: 50 });
    expect(lines.filter((l) => l.type === 'action').map(({ t: _t, ...rest }) => rest)).toEqual([
      { v: 1, type: 'action', stepId: 'a', action: 'busy', actionType: 'retry', label: 'onFailure: busy (retry x1) [$statusCode == 503]', retries: 1, runs: 1 },
      { v: 1, type: 'action', stepId: 'b', action: 'again', actionType: 'goto', label: 'onFailure: again (goto a)', retries: 0, runs: 3 },
    ]);
    expect(lines.at(-1)).toMatchObject({ v: 1, type: 'end', status: 'succeeded', runs: 5, records: 5 });
  });

  it('gives each state line its event, source state, step, counters and transition actions', async () => {
    const { lines } = await traceRun({ a: [503, 200], b: [200] });
    const backoff = lines.find((l) => l.state === 's0_a.backoff');
    expect(backoff).toEqual({
      v: 1,
      t: backoff!.t,
      type: 'state',
      state: 's0_a.backoff',
      from: 's0_a.calling',
      event: 'runStep.done',
      stepId: 'a',
      retries: 1,
      runs: 1,
      maxSteps: 50,
      actions: ['recordStep', 'scheduleRetry'],
      retryDelayMs: 0,
    });
    const retried = lines.find((l) => l.state === 's0_a.calling' && l.from === 's0_a.backoff');
    expect(retried).toMatchObject({ event: 'xstate.after.retryDelay.workflow.s0_a.backoff' });
    expect(lines.find((l) => l.state === 'succeeded')).not.toHaveProperty('stepId');
  });

  it('stamps lines with milliseconds since the start, 3 decimals, never going back', async () => {
    const { lines } = await traceRun({});
    expect(lines[1]!.t).toBe(1.235);
    const times = lines.map((l) => l.t);
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    for (const t of times) expect(Math.round(t * 1000) / 1000).toBe(t);
  });

  it('never writes inputs, outputs or step data', async () => {
    const { lines } = await traceRun({ a: [503, 200] });
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });

  it('reports a failed run with its failure, and an interrupted one as interrupted', async () => {
    const { lines } = await traceRun({ a: [500] });
    expect(lines.at(-1)).toMatchObject({ type: 'end', status: 'failed', failure: { code: 'STEP_FAILED', stepId: 'a', message: 'the step failed' } });
    const out = new Collector();
    await createTracer(out, plan, { maxSteps: 5 }).finish(undefined, true);
    expect(linesOf(out.text).at(-1)).toMatchObject({ type: 'end', status: 'interrupted', runs: 0, records: 0 });
  });

  it('marks the retry action that found its limit reached', async () => {
    const { lines } = await traceRun({ a: [503, 503] });
    const actions = lines.filter((l) => l.type === 'action');
    expect(actions.map((l) => [l.action, l.limitReached ?? false, l.retries])).toEqual([
      ['busy', false, 1],
      ['busy', true, 1],
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'end', status: 'failed', failure: { code: 'RETRIES_EXHAUSTED' } });
  });

  it('marks the action whose criteria could not be evaluated', async () => {
    const broken: WorkflowPlan = {
      workflowId: 'wf',
      steps: [step('a', { onFailure: [action('end', { name: 'stop', criteriaId: 0, criteriaCanFail: true, label: 'onFailure: stop (end) [$response.body#/n > 3]' })] })],
    };
    const out = new Collector();
    const tracer = createTracer(out, broken, { maxSteps: 5 });
    const judge = { ...judgeOf([() => false]), criteriaError: () => 'operand cannot be coerced to a number' };
    const machine = compileWorkflow(broken, judge, async () => ({ statusCode: 500, ok: false, dryRun: false, outputs: {} }));
    const actor = createActor(machine, { input: { inputs: {}, maxSteps: 5 }, inspect: tracer.inspect });
    await new Promise<void>((resolve) => {
      actor.subscribe({ complete: resolve });
      actor.start();
    });
    await tracer.finish(actor.getSnapshot().context, false);
    const lines = linesOf(out.text);
    expect(lines.find((l) => l.type === 'action')).toMatchObject({ action: 'stop', actionType: 'end', criteriaBroken: true, label: 'onFailure: stop (end) [$response.body#/n > 3] (criteria cannot be evaluated)' });
    expect(lines.at(-1)).toMatchObject({ type: 'end', status: 'failed', failure: { message: 'criteria of action "stop": operand cannot be coerced to a number' } });
  });

  it('writes nothing after the end line', async () => {
    const out = new Collector();
    const tracer = createTracer(out, plan, { maxSteps: 5 });
    await tracer.finish(undefined, false);
    await tracer.finish(undefined, true);
    expect(linesOf(out.text).map((l) => l.type)).toEqual(['start', 'end']);
  });
});

describe('the tracing reporter', () => {
  const request: HttpRequest = {
    method: 'POST',
    url: 'https://user:pw@api.example.test/pets?api_key=k3y&tag=x',
    headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
    body: { kind: 'bytes', contentType: 'application/json', data: '{"password":"hunter2"}' },
  };
  const response: HttpResponse = { status: 201, headers: { 'set-cookie': ['sid=c00kie'] }, body: { token: 'b0dy' }, url: request.url, durationMs: 12.345678, retries: 2 };

  it('summarises each request with a redacted URL and no headers or bodies, and still reports', async () => {
    const out = new Collector();
    const shown: string[] = [];
    const tracer = createTracer(out, plan, { maxSteps: 5, now: fakeClock() });
    const reporter = tracer.reporter({ ...silent, stepDone: (stepId) => shown.push(stepId), dryRun: (stepId) => shown.push(`dry ${stepId}`) });
    reporter.stepDone('a', request, response, true);
    reporter.stepDone('b', request, undefined, false, 'connection refused');
    reporter.stepFailedEarly('c', 'the request could not be built: $inputs.x resolves to nothing');
    reporter.dryRun('d', request);
    await tracer.finish(undefined, false);
    const steps = linesOf(out.text).filter((l) => l.type === 'step').map(({ t: _t, ...rest }) => rest);
    const url = 'https://user:***@api.example.test/pets?api_key=***&tag=x';
    expect(steps).toEqual([
      { v: 1, type: 'step', stepId: 'a', method: 'POST', url, status: 201, ok: true, durationMs: 12.346, transportRetries: 2, retries: 0, runs: 0 },
      { v: 1, type: 'step', stepId: 'b', method: 'POST', url, status: 0, ok: false, reason: 'connection refused', retries: 0, runs: 0 },
      { v: 1, type: 'step', stepId: 'c', status: 0, ok: false, reason: 'the request could not be built: $inputs.x resolves to nothing', retries: 0, runs: 0 },
      { v: 1, type: 'step', stepId: 'd', dryRun: true, method: 'POST', url, retries: 0, runs: 0 },
    ]);
    expect(out.text).not.toMatch(/pw|k3y|t0ken|hunter2|c00kie|b0dy/);
    expect(shown).toEqual(['a', 'b', 'dry d']);
  });
});

describe('trace files', () => {
  it('refuses a path in a folder that does not exist, as a usage error', async () => {
    const error = await openTraceFile('no/such/folder/run.ndjson', tmpdir()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FILE' });
    expect(exitCodeFor((error as ToolError).kind)).toBe(2);
    expect((error as Error).message).toBe('cannot write the trace file no/such/folder/run.ndjson: ENOENT');
  });

  it('creates the file relative to the working folder and flushes it on finish', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-'));
    const tracer = createTracer(await openTraceFile('run.ndjson', dir), plan, { maxSteps: 5 });
    await tracer.finish(undefined, false);
    expect(linesOf(readFileSync(join(dir, 'run.ndjson'), 'utf8')).map((l) => l.type)).toEqual(['start', 'end']);
  });

  it('reports a failed write when the trace is finished, without crashing the run', async () => {
    const broken = new Writable({ write: (_chunk, _encoding, done) => done(new Error('ENOSPC: no space left on device')) });
    const tracer = createTracer(broken, plan, { maxSteps: 5, path: 'run.ndjson' });
    const error = await tracer.finish(undefined, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TraceWriteError);
    expect((error as Error).message).toBe('could not write the trace run.ndjson: ENOSPC: no space left on device');
  });
});
