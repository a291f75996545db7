/**
 * How a v2 run goes from workflow to workflow at the top level: the selected workflow's
 * dependencies first, each once, then the workflow itself, then each workflow a goto transfers to.
 * Each runs as its own top-level actor, one at a time (a transfer is a tail call: nothing waits for
 * the workflow that transferred), and all of them share the run's step budget, depth limit and
 * `$workflows`. Nested calls run inside them, as child actors (machines/compile-workflow.ts).
 */
import type { InspectionEvent } from 'xstate';
import { callActorName, compileWorkflow, newRunShared, type WorkflowMachine } from '../../machines/compile-workflow.js';
import type { RunFailure, StepRecord, Transfer, WorkflowContext } from '../../machines/types.js';
import type { StepExecutor } from '../execute/execute-step.js';
import { createActionJudge } from '../execute/judge.js';
import type { PreparedRun } from '../plan/prepare-run.js';
import type { PreparedWorkflow } from '../plan/prepare-workflow.js';
import { runMachine } from './run-machine.js';

/** One entry of the record's `dependencies`. */
export interface DependencyRecord {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: StepRecord[];
}

export interface WorkflowsRun {
  /** The context of the last workflow that ran (its outputs end the run). */
  context: WorkflowContext;
  /** The top-level steps: the selected workflow's and those of the workflows it transferred to. */
  records: StepRecord[];
  transfers: Transfer[];
  dependencies: DependencyRecord[];
  interrupted: boolean;
  /** Why the run failed, and in which workflow. */
  failure?: { workflowId: string; failure: RunFailure; dependency: boolean };
  /** Step runs of the whole run. */
  runs: number;
}

/** Compiles every workflow of the run once, each able to invoke the others by key. */
export function compileRunMachines(prepared: PreparedRun, executorFor: (workflow: PreparedWorkflow) => StepExecutor): Map<string, WorkflowMachine> {
  const calls: Record<string, unknown> = {};
  const machines = new Map<string, WorkflowMachine>();
  for (const [key, workflow] of prepared.workflows) {
    const machine = compileWorkflow(workflow.plan, createActionJudge(workflow.programs, workflow.outputs), executorFor(workflow), calls);
    calls[callActorName(key)] = machine;
    machines.set(key, machine);
  }
  return machines;
}

export interface RunWorkflowsOptions {
  inputs: Record<string, unknown>;
  maxSteps: number;
  maxDepth: number;
  signal: AbortSignal;
  inspect?: (event: InspectionEvent) => void;
}

/** Runs the dependencies, the selected workflow and its transfers; stops at the first failure or interruption. */
export async function runWorkflows(prepared: PreparedRun, machines: ReadonlyMap<string, WorkflowMachine>, options: RunWorkflowsOptions): Promise<WorkflowsRun> {
  const run = newRunShared(options.maxSteps, options.maxDepth);
  const start = (key: string) => runMachine(machines.get(key)!, { inputs: options.inputs, maxSteps: options.maxSteps, run }, options.signal, options.inspect);
  const dependencies: DependencyRecord[] = [];
  const finish = (context: WorkflowContext) => {
    run.workflows[context.key] = { inputs: context.inputs, outputs: context.failure ? {} : context.outputs };
  };
  let context: WorkflowContext | undefined;
  for (const key of prepared.dependencies) {
    const ran = await start(key);
    context = ran.context;
    finish(context);
    dependencies.push({ workflowId: context.workflowId, outputs: context.failure ? {} : context.outputs, steps: context.records });
    if (ran.interrupted || context.failure) {
      const failed: WorkflowsRun = { context, records: [], transfers: [], dependencies, interrupted: ran.interrupted, runs: run.runs };
      if (context.failure) failed.failure = { workflowId: context.workflowId, failure: context.failure, dependency: true };
      return failed;
    }
  }
  const records: StepRecord[] = [];
  const transfers: Transfer[] = [];
  let key = prepared.entry;
  for (;;) {
    const ran = await start(key);
    context = ran.context;
    finish(context);
    records.push(...context.records);
    const result: WorkflowsRun = { context, records, transfers, dependencies, interrupted: ran.interrupted, runs: run.runs };
    if (ran.interrupted) return result;
    if (context.failure) {
      result.failure = { workflowId: context.workflowId, failure: context.failure, dependency: false };
      return result;
    }
    if (context.transfer === undefined) return result;
    transfers.push({ from: context.workflowId, stepId: context.transfer.stepId, to: context.transfer.to });
    key = context.transfer.to;
  }
}
