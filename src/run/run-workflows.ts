/**
 * How a v2 run goes from workflow to workflow at the top level: the selected workflow's
 * dependencies first, each once, then the workflow itself, then each workflow a goto transfers to.
 * A dependency runs to its end, transfers included, and every workflow runs its own dependencies
 * first (once per run: one the run completed does not run again). Each runs as its own top-level
 * actor, one at a time (a transfer is a tail call: nothing waits for the workflow that
 * transferred), and all of them share the run's step budget, depth limit, `$workflows` and the
 * completed workflows. Nested calls run inside them, as child actors (machines/compile-workflow.ts),
 * and run the dependencies of the workflows they call themselves (machines/depends-on.ts).
 */
import type { InspectionEvent } from 'xstate';
import { callActorName, compileWorkflow, newRunShared, type WorkflowMachine } from '../../machines/compile-workflow.js';
import { bodyActorName, compileDependent } from '../../machines/depends-on.js';
import type { DependencyRecord, RunFailure, StepRecord, Transfer, WorkflowContext } from '../../machines/types.js';
import type { StepExecutor } from '../execute/execute-step.js';
import { createActionJudge } from '../execute/judge.js';
import type { PreparedRun } from '../plan/prepare-run.js';
import type { PreparedWorkflow } from '../plan/prepare-workflow.js';
import { runMachine } from './run-machine.js';
import type { ActorClock } from './immediate-clock.js';

export type { DependencyRecord } from '../../machines/types.js';

export interface WorkflowsRun {
  /** The context of the last workflow that ran (its outputs end the run). */
  context: WorkflowContext;
  /** The top-level steps: the selected workflow's and those of the workflows it transferred to. */
  records: StepRecord[];
  transfers: Transfer[];
  /** The dependencies that ran, in the order they ended (a dependency's own dependencies before it). */
  dependencies: DependencyRecord[];
  interrupted: boolean;
  /**
   * Why the run failed, and in which workflow; with `dependency`, the failure was in the run of a
   * dependency (`dependency.workflowId`) of workflow `dependency.dependent`, which did not run.
   */
  failure?: { workflowId: string; failure: RunFailure; dependency?: { workflowId: string; dependent: string } };
  /** Step runs of the whole run. */
  runs: number;
}

/**
 * Compiles every workflow of the run once, each able to invoke the others by key. A workflow with
 * dependsOn is called through the machine that runs its dependencies first (compileDependent); the
 * map holds each workflow's own machine, which the top level runs.
 */
export function compileRunMachines(prepared: PreparedRun, executorFor: (workflow: PreparedWorkflow) => StepExecutor): Map<string, WorkflowMachine> {
  const calls: Record<string, unknown> = {};
  const machines = new Map<string, WorkflowMachine>();
  for (const [key, workflow] of prepared.workflows) {
    const machine = compileWorkflow(workflow.plan, createActionJudge(workflow.programs, workflow.outputs), executorFor(workflow), calls);
    if (workflow.plan.dependsOn) {
      calls[bodyActorName(key)] = machine;
      calls[callActorName(key)] = compileDependent(workflow.plan, calls);
    } else calls[callActorName(key)] = machine;
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
  /** The clock of retry waits (real timers by default; a replay skips them). */
  clock?: ActorClock;
}

/** Runs the selected workflow and its transfers, each after its dependencies; stops at the first failure or interruption. */
export async function runWorkflows(prepared: PreparedRun, machines: ReadonlyMap<string, WorkflowMachine>, options: RunWorkflowsOptions): Promise<WorkflowsRun> {
  const run = newRunShared(options.maxSteps, options.maxDepth);
  const dependencies: DependencyRecord[] = [];
  let last: WorkflowContext | undefined;
  let interrupted = false;
  let failure: WorkflowsRun['failure'];

  /**
   * Runs `key` to the end of its run: its dependencies, itself, then each workflow it transfers to
   * (each after its own dependencies). The chain's step records and transfers are appended to
   * `records` and `transfers`. Resolves to the context that ended it with success, or undefined
   * when it failed or was interrupted (then `failure` or `interrupted` say so).
   */
  const runChain = async (key: string, records: StepRecord[], transfers: Transfer[]): Promise<WorkflowContext | undefined> => {
    // A transfer's target runs with the run's inputs, and its action's parameters over them (Arazzo 1.1).
    let inputs = options.inputs;
    for (;;) {
      if (!(await runDependencies(key))) return undefined;
      const ran = await runMachine(machines.get(key)!, { inputs, maxSteps: options.maxSteps, run }, options.signal, options.inspect, options.clock);
      const context = (last = ran.context);
      run.workflows[context.key] = { inputs: context.inputs, outputs: context.failure ? {} : context.outputs };
      records.push(...context.records);
      if (ran.interrupted) {
        interrupted = true;
        return undefined;
      }
      if (context.failure) {
        failure = { workflowId: context.workflowId, failure: context.failure };
        return undefined;
      }
      if (context.transfer === undefined) {
        run.completed[context.key] = true;
        return context;
      }
      transfers.push({ from: context.workflowId, stepId: context.transfer.stepId, to: context.transfer.to });
      key = context.transfer.to;
      inputs = context.transfer.inputs ? { ...options.inputs, ...context.transfer.inputs } : options.inputs;
    }
  };

  /** Runs the dependencies of `key` the run has not completed, in order; false when one failed or the run was interrupted. */
  const runDependencies = async (key: string): Promise<boolean> => {
    const workflow = prepared.workflows.get(key);
    for (const { workflow: dependency } of workflow?.plan.dependsOn ?? []) {
      if (run.completed[dependency] === true) continue;
      const steps: StepRecord[] = [];
      const transfers: Transfer[] = [];
      const end = await runChain(dependency, steps, transfers);
      const record: DependencyRecord = { workflowId: prepared.workflows.get(dependency)?.plan.workflowId ?? dependency, outputs: end ? end.outputs : {}, steps };
      if (transfers.length > 0) record.transfers = transfers;
      dependencies.push(record);
      if (end === undefined) {
        // The innermost dependency that failed is the one stderr names, with the workflow that waited for it.
        if (failure && failure.dependency === undefined) failure.dependency = { workflowId: record.workflowId, dependent: workflow?.plan.workflowId ?? key };
        return false;
      }
      run.completed[dependency] = true;
    }
    return true;
  };

  const records: StepRecord[] = [];
  const transfers: Transfer[] = [];
  await runChain(prepared.entry, records, transfers);
  const result: WorkflowsRun = { context: last!, records, transfers, dependencies, interrupted, runs: run.runs };
  if (failure && !interrupted) result.failure = failure;
  return result;
}
