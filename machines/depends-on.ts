/**
 * The dependsOn of a workflow that a nested call starts (a nested step, a transfer inside the
 * call): Arazzo's dependencies "MUST be completed before this workflow can be processed". The
 * machine a call invokes for such a workflow first runs each dependency the run has not completed
 * yet, in order, to its end (following the gotos that transfer it to other workflows; each of those
 * runs its own dependsOn first the same way, since it is invoked by the same name), then invokes the
 * workflow's own machine with the call's input, and ends with its result, the dependencies it ran
 * attached. A dependency that fails ends it with DEPENDENCY_FAILED (the workflow does not run); one
 * that stops the run (budget, depth) ends it with that failure. A top-level run runs dependencies
 * itself, as top-level workflows (src/run/run-workflows.ts).
 */
import { assign, setup } from 'xstate';
import { callActorName } from './call-states.js';
import { newRunShared } from './compile-workflow.js';
import type { DependencyPlan, DependencyRecord, RunFailure, RunShared, StepRecord, Transfer, WorkflowInput, WorkflowPlan, WorkflowResult } from './types.js';
import { isFatal, type CallDoneEvent } from './workflow-setup.js';

const BODY_PREFIX = 'workflow-body:';

/** The actor name of a workflow's own machine, which the machine of compileDependent invokes after the dependencies. */
export function bodyActorName(key: string): string {
  return `${BODY_PREFIX}${key}`;
}

/** The dependency chain running: the workflow dependsOn names, then those it transferred to. */
interface ChainState {
  workflowId?: string;
  records: StepRecord[];
  transfers: Transfer[];
  result?: WorkflowResult;
}

/** The context of a dependent workflow's call (no `workflowId`: observers read only workflow machines). */
export interface DependentContext {
  /** The call's input, passed on to the workflow's own machine. */
  input: WorkflowInput & { run: RunShared };
  dependencies: DependencyRecord[];
  chain?: ChainState;
  failure?: RunFailure;
  result?: WorkflowResult;
}

/** The workflow result a done event of an invoked machine carries. */
function resultOf(event: { type: string }): WorkflowResult | undefined {
  return event.type.startsWith('xstate.done.actor.') ? (event as CallDoneEvent).output : undefined;
}

function dependentSetup(calls: Record<string, unknown>) {
  // Machines are looked up by name in the run's `calls`, filled once every workflow is compiled.
  const actors = Object.create(calls) as Record<string, never>;
  return setup({
    types: {} as { context: DependentContext; input: WorkflowInput; events: CallDoneEvent },
    actors,
    guards: {
      /** Dependency `key` completed earlier in the run: it does not run again. */
      completed: ({ context }, params: { key: string }) => context.input.run.completed[params.key] === true,
      /** A dependency runs one level below the call: past the depth limit it cannot. */
      depthExceeded: ({ context }) => (context.input.depth ?? 0) + 1 > context.input.run.maxDepth,
      chainFatal: ({ event }) => isFatal(resultOf(event)?.failure),
      transferredTo: ({ event }, params: { to: string }) => resultOf(event)?.transfer?.to === params.to,
      chainFailed: ({ event }) => resultOf(event)?.status !== 'succeeded',
    },
    actions: {
      /** A dependency starts: nothing of its run yet. */
      startChain: assign({ chain: () => ({ records: [], transfers: [] }) }),
      /** A workflow of the dependency's run ended: its records and transfer join the chain's; `$workflows` and the run's completed workflows note it. */
      storeChainResult: assign(({ context, event }) => {
        const result = resultOf(event);
        const chain = context.chain;
        if (!result || !chain) return {};
        // The run's shared state (machines/workflow-setup.ts says why it is shared).
        context.input.run.workflows[result.key] = { inputs: result.inputs, outputs: result.outputs };
        if (result.status === 'succeeded') context.input.run.completed[result.key] = true;
        const transfers = result.transfer ? [...chain.transfers, { from: result.workflowId, stepId: result.transfer.stepId, to: result.transfer.to }] : chain.transfers;
        return { chain: { workflowId: chain.workflowId ?? result.workflowId, records: [...chain.records, ...result.records], transfers, result } };
      }),
      /** The dependency's run ended: it joins the dependencies, and a success marks it completed. */
      recordDependency: assign(({ context }, params: { key: string }) => {
        const chain = context.chain;
        const result = chain?.result;
        if (!chain || !result) return {};
        const succeeded = result.status === 'succeeded';
        if (succeeded) context.input.run.completed[params.key] = true;
        const record: DependencyRecord = { workflowId: chain.workflowId ?? result.workflowId, outputs: succeeded ? result.outputs : {}, steps: chain.records };
        if (chain.transfers.length > 0) record.transfers = chain.transfers;
        return { dependencies: [...context.dependencies, record] };
      }),
      failDependency: assign(({ context }) => {
        const failure: RunFailure = { code: 'DEPENDENCY_FAILED', workflow: context.chain?.workflowId ?? '' };
        const cause = context.chain?.result?.failure;
        if (cause) failure.cause = cause;
        return { failure };
      }),
      /** The dependency stopped the run (budget, depth): so does the call, with the same failure. */
      failFromChain: assign(({ context }) => ({ failure: context.chain?.result?.failure })),
      failDepth: assign(({ context }) => ({ failure: { code: 'DEPTH_EXCEEDED', depth: (context.input.depth ?? 0) + 1, maxDepth: context.input.run.maxDepth } as RunFailure })),
      storeResult: assign(({ event }) => ({ result: resultOf(event) })),
    },
  });
}

/**
 * The machine a nested call of `plan`'s workflow invokes when the workflow has dependsOn
 * (src/run registers it in `calls` under the workflow's call name, and the workflow's own machine
 * under bodyActorName). Each dependency runs with the call's inputs, one level deeper than the
 * call, as a child named `<actor>/dependsOn/<key>`.
 */
export function compileDependent(plan: WorkflowPlan, calls: Record<string, unknown>) {
  const key = plan.key ?? plan.workflowId;
  const dependencies = plan.dependsOn ?? [];
  const states: Record<string, DependentStateConfig> = {};
  dependencies.forEach((dependency, i) => {
    states[`d${i}`] = dependencyState(dependency, i, i + 1 < dependencies.length ? `#dependent.d${i + 1}` : '#dependent.running');
  });
  states.running = {
    invoke: { src: bodyActorName(key), id: callActorName(key), input: ({ context }: { context: DependentContext }) => context.input, onDone: { target: 'done', actions: 'storeResult' } },
  };
  states.done = { type: 'final' };
  states.failed = { type: 'final' };
  return dependentSetup(calls).createMachine({
    id: 'dependent',
    description: `dependsOn of workflow ${plan.workflowId}`,
    context: ({ input }) => ({ input: { ...input, run: input.run ?? newRunShared(input.maxSteps) }, dependencies: [] }),
    initial: dependencies.length > 0 ? 'd0' : 'running',
    output: ({ context }) => outputOf(plan, key, context),
    states,
  });
}

type DependentConfig = Parameters<ReturnType<typeof dependentSetup>['createMachine']>[0];
type DependentStateConfig = NonNullable<DependentConfig['states']>[string];

/** One dependency: skipped when completed; else its workflow, then each workflow it transfers to, to the end. */
function dependencyState(dependency: DependencyPlan, i: number, next: string): DependentStateConfig {
  const chain = [dependency.workflow, ...dependency.transfers.filter((key) => key !== dependency.workflow)];
  const record = { type: 'recordDependency' as const, params: { key: dependency.workflow } };
  const states: Record<string, DependentStateConfig> = {
    check: {
      always: [
        { guard: { type: 'completed', params: { key: dependency.workflow } }, target: next },
        { guard: 'depthExceeded', target: '#dependent.failed', actions: 'failDepth' },
        { target: 'run_0', actions: 'startChain' },
      ],
    },
  };
  chain.forEach((key, n) => {
    states[`run_${n}`] = {
      invoke: {
        src: callActorName(key),
        id: callActorName(key),
        input: ({ context }: { context: DependentContext }): WorkflowInput => ({
          inputs: context.input.inputs,
          maxSteps: context.input.maxSteps,
          run: context.input.run,
          depth: (context.input.depth ?? 0) + 1,
          via: context.input.via ?? [],
          actor: `${context.input.actor ?? ''}/dependsOn/${key}`,
          stack: context.input.stack ?? [],
        }),
        onDone: [
          { guard: 'chainFatal', target: '#dependent.failed', actions: ['storeChainResult', 'failFromChain'] },
          ...chain.map((to, m) => ({ guard: { type: 'transferredTo' as const, params: { to } }, target: `#dependent.d${i}.run_${m}`, reenter: true, actions: 'storeChainResult' as const })),
          { guard: 'chainFailed', target: '#dependent.failed', actions: ['storeChainResult', record, 'failDependency'] },
          { target: next, actions: ['storeChainResult', record] },
        ],
      },
    };
  });
  return { initial: 'check', states };
}

/** The call's result: the workflow's, with the dependencies that ran first; or, when one failed, a failure of the workflow before its first step. */
function outputOf(plan: WorkflowPlan, key: string, context: DependentContext): WorkflowResult {
  const dependencies = context.dependencies;
  if (context.result) return dependencies.length > 0 ? { ...context.result, dependencies } : context.result;
  const result: WorkflowResult = { workflowId: plan.workflowId, key, status: 'failed', inputs: context.input.inputs, outputs: {}, records: [] };
  if (context.failure) result.failure = context.failure;
  if (dependencies.length > 0) result.dependencies = dependencies;
  return result;
}
