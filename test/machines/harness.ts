import { createActor, SimulatedClock } from 'xstate';
import { compileWorkflow, type StepRunner, type WorkflowMachine } from '../../machines/compile-workflow.js';
import { stepRunnerActor } from '../../machines/step-runner.js';
import type { ActionPlan, Judge, RunFailure, StepPlan, WorkflowContext, WorkflowPlan } from '../../machines/types.js';
import { failureMessage } from '../../src/observe/failure-message.js';

/** A step's scripted responses: the status of each successive run (the last one repeats). */
export type Script = Record<string, number[]>;

export function step(stepId: string, extra: Partial<StepPlan> = {}): StepPlan {
  return { stepId, onSuccess: [], onFailure: [], onSuccessFrom: 'none', onFailureFrom: 'none', ...extra };
}

export function action(type: ActionPlan['type'], extra: Partial<ActionPlan> = {}): ActionPlan {
  return { name: `${type}Action`, type, retryAfterSeconds: 0, retryLimit: 1, label: type, ...extra };
}

/** The machine with its `runStep` actor swapped for one running `runner`, as src/run provides its executor. */
export function withRunner(machine: WorkflowMachine, runner: StepRunner): WorkflowMachine {
  return machine.provide({ actors: { runStep: stepRunnerActor(runner) } });
}

/** A judge whose criteria sets are predicates on the last status code. */
export function judgeOf(criteria: Array<(status: number) => boolean>, outputs: (ctx: WorkflowContext) => Record<string, unknown> = () => ({})): Judge {
  return {
    criteriaHold: (id, ctx, outcome) => criteria[id]!((outcome ?? ctx.last)?.statusCode ?? 0),
    criteriaError: () => undefined,
    actionInputs: () => ({}),
    workflowOutputs: outputs,
  };
}

/** A failure as the user reads it: its code and step, and the message src/run words from its data. */
export function worded(failure: RunFailure | undefined): { code: string; stepId?: string; message: string } | undefined {
  return failure && { code: failure.code, stepId: failure.stepId, message: failureMessage(failure) };
}

export interface RunResult {
  context: WorkflowContext;
  final: string;
  calls: string[];
  /** Simulated milliseconds spent in backoff. */
  sleptMs: number;
}

/**
 * Runs a compiled plan with a fake runStep actor: status < 400 succeeds, 0 is a transport error.
 * Backoff delays are skipped on a SimulatedClock and summed in `sleptMs`.
 */
export async function runPlan(
  plan: WorkflowPlan,
  script: Script,
  opts: { judge?: Judge; maxSteps?: number; dryRun?: boolean; retryAfterHeader?: number } = {},
): Promise<RunResult> {
  const calls: string[] = [];
  const seen = new Map<string, number>();
  const machine = withRunner(compileWorkflow(plan, opts.judge ?? judgeOf([])), async (input) => {
    calls.push(input.stepId);
    const n = seen.get(input.stepId) ?? 0;
    seen.set(input.stepId, n + 1);
    const statuses = script[input.stepId] ?? [200];
    const status = statuses[Math.min(n, statuses.length - 1)]!;
    if (opts.dryRun) return { statusCode: 0, ok: false, dryRun: true, outputs: {} };
    const ok = status > 0 && status < 400;
    return {
      statusCode: status,
      ok,
      dryRun: false,
      outputs: ok ? { run: n + 1 } : {},
      reason: ok ? undefined : status === 0 ? 'connection refused' : `HTTP ${status}`,
      retryAfterHeaderSeconds: opts.retryAfterHeader,
    };
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { inputs: {}, maxSteps: opts.maxSteps ?? 10000 }, clock });
  let sleptMs = 0;
  const done = new Promise<void>((resolve, reject) => {
    actor.subscribe({
      next: (snap) => {
        if (snap.status === 'done') resolve();
        const value = JSON.stringify(snap.value);
        if (value.includes('"backoff"')) {
          const ms = snap.context.retryDelayMs;
          sleptMs += ms;
          setImmediate(() => clock.increment(ms));
        }
      },
      error: reject,
    });
  });
  actor.start();
  await done;
  const snap = actor.getSnapshot();
  return { context: snap.context, final: String(snap.value), calls, sleptMs };
}
