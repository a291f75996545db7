import { assign, fromPromise, setup, type PromiseActorLogic } from 'xstate';
import { retryDelaySeconds } from './retry-delay.js';
import { FAILED, SUCCEEDED, stepKey, stepTarget } from './state-keys.js';
import type {
  ActionPlan,
  FailureCode,
  Judge,
  RunStepInput,
  StepOutcome,
  StepPlan,
  StepRecord,
  WorkflowContext,
  WorkflowInput,
  WorkflowPlan,
} from './types.js';

type FailedVia = StepRecord['failedVia'];

/** Parameters of the `fail` action. `message` is used as is; `template` wraps the step's reason. */
interface FailParams {
  code: FailureCode;
  stepId?: string;
  message?: string;
  /** `{reason}` is replaced by the outcome's reason. */
  template?: string;
}

/** The actor that runs one step body (src/run's executor; fakes in tests). */
export type RunStepLogic = PromiseActorLogic<StepOutcome, RunStepInput>;

/** The step-level machinery shared by every compiled workflow; `runStep` is supplied by the caller. */
function workflowSetup(judge: Judge, runStep: RunStepLogic | undefined) {
  return setup({
    types: {} as { context: WorkflowContext; input: WorkflowInput },
    actors: {
      runStep:
        runStep ??
        fromPromise<StepOutcome, RunStepInput>(async () => {
          throw new Error('the runStep actor must be given to compileWorkflow or provided with machine.provide()');
        }),
    },
    guards: {
      budgetSpent: ({ context }) => context.runs >= context.maxSteps,
      wasDryRun: ({ context }) => context.last?.dryRun === true,
      stepSucceeded: ({ context }) => context.last?.ok === true,
      criteriaHold: ({ context }, params: { criteriaId?: number }) =>
        params.criteriaId === undefined || judge.criteriaHold(params.criteriaId, context),
      criteriaBroken: ({ context }, params: { criteriaId: number }) => judge.criteriaError(params.criteriaId, context) !== undefined,
      retryAllowed: ({ context }, params: { criteriaId?: number; retryLimit: number }) =>
        context.retries < params.retryLimit &&
        (params.criteriaId === undefined || judge.criteriaHold(params.criteriaId, context)),
    },
    actions: {
      enterStep: assign((_, params: { index: number }) => ({ current: params.index, retries: 0 })),
      countRun: assign({ runs: ({ context }) => context.runs + 1 }),
      storeOutcome: assign({ last: ({ event }) => (event as unknown as { output: StepOutcome }).output }),
      storeCrash: assign({
        last: ({ event }) => ({
          statusCode: 0,
          ok: false,
          dryRun: false,
          outputs: {},
          reason: `internal error: ${errorMessage((event as unknown as { error: unknown }).error)}`,
        }),
      }),
      recordStep: assign(({ context }, params: { stepId: string; failedVia?: FailedVia }) => {
        const last = context.last;
        const ok = last?.ok === true || last?.dryRun === true;
        const record: StepRecord = {
          stepId: params.stepId,
          status: last?.statusCode ?? 0,
          dryRun: last?.dryRun === true,
          outputs: ok ? (last?.outputs ?? {}) : {},
        };
        if (params.failedVia) record.failedVia = params.failedVia;
        // Appended in place: copying the list and the map on every step made a run O(n²) in its
        // step runs (3000 steps: 0.8-1.2 ms per step instead of 0.25). Safe because the context
        // factory creates both afresh for each actor, and nothing reads an older snapshot's
        // records later (inspection and trace observers read them synchronously, as they happen).
        context.records.push(record);
        Object.defineProperty(context.steps, params.stepId, {
          // defineProperty, not `steps[id] =`: a stepId of "__proto__" must stay an own key.
          value: { ...(last?.data as object | undefined), outputs: record.outputs },
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return { records: context.records, steps: context.steps };
      }),
      scheduleRetry: assign(({ context }, params: { retryAfterSeconds: number }) => ({
        retries: context.retries + 1,
        retryDelayMs: retryDelaySeconds(params.retryAfterSeconds, context.last?.retryAfterHeaderSeconds) * 1000,
      })),
      fail: assign(({ context }, params: FailParams) => {
        const reason = context.last?.reason ?? 'the step failed';
        const message = params.message ?? (params.template ?? '{reason}').replace('{reason}', reason);
        return { failure: { code: params.code, stepId: params.stepId, message } };
      }),
      failOnCriteria: assign(({ context }, params: { stepId: string; criteriaId: number; action: string }) => ({
        failure: {
          code: 'STEP_FAILED' as const,
          stepId: params.stepId,
          message: `criteria of action "${params.action}": ${judge.criteriaError(params.criteriaId, context) ?? 'cannot be evaluated'}`,
        },
      })),
      computeOutputs: assign(({ context }) => ({ outputs: judge.workflowOutputs(context) })),
    },
    delays: {
      retryDelay: ({ context }) => context.retryDelayMs,
    },
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Compiles one workflow plan into an XState machine: a state per step (entering, calling, judging,
 * onSuccess, onFailure, backoff) and the finals `succeeded` and `failed`. Action chains become ordered
 * guarded eventless transitions; the last one is "no action applies". `runStep` is the step actor;
 * pass it here rather than through `machine.provide()`, which builds every state node a second time
 * (1000 steps: ~140 ms and ~10 MiB). Throws on a plan that breaks its invariants (a goto without a
 * target, a retry in a success chain): src/run validates first.
 */
export function compileWorkflow(plan: WorkflowPlan, judge: Judge, runStep?: RunStepLogic) {
  const states: Record<string, object> = {};
  plan.steps.forEach((step, index) => {
    states[stepKey(index, step.stepId)] = stepState(plan, step, index);
  });
  states.succeeded = { type: 'final', entry: 'computeOutputs' };
  states.failed = { type: 'final' };

  return workflowSetup(judge, runStep).createMachine({
    id: 'workflow',
    description: `Arazzo workflow ${plan.workflowId}`,
    context: ({ input }) => ({
      workflowId: plan.workflowId,
      inputs: input.inputs,
      steps: {},
      records: [],
      runs: 0,
      maxSteps: input.maxSteps,
      retries: 0,
      current: 0,
      retryDelayMs: 0,
      outputs: {},
    }),
    initial: plan.steps.length > 0 ? stepKey(0, plan.steps[0]!.stepId) : 'succeeded',
    // The config is built from data; its exact literal types cannot be known statically.
    states: states as never,
  });
}

/** Where a step goes when it is done and no action moves it elsewhere. */
function nextTarget(plan: WorkflowPlan, index: number): string {
  const next = plan.steps[index + 1];
  return next ? stepTarget(index + 1, next.stepId) : SUCCEEDED;
}

function stepState(plan: WorkflowPlan, step: StepPlan, index: number): object {
  const at = (sub: string) => stepTarget(index, step.stepId, sub);
  const failAction = (code: FailureCode, extra: Omit<FailParams, 'code' | 'stepId'>) => ({
    type: 'fail',
    params: { code, stepId: step.stepId, ...extra },
  });

  const calling = step.unsupported
    ? { always: { target: FAILED, actions: failAction('UNSUPPORTED', { message: step.unsupported }) } }
    : {
        invoke: {
          src: 'runStep',
          input: ({ context }: { context: WorkflowContext }): RunStepInput => ({
            stepIndex: index,
            stepId: step.stepId,
            inputs: context.inputs,
            steps: context.steps,
          }),
          onDone: { target: at('judging'), actions: 'storeOutcome' },
          onError: { target: at('judging'), actions: 'storeCrash' },
        },
      };

  return {
    meta: { stepId: step.stepId, index },
    description: `step ${step.stepId}`,
    entry: { type: 'enterStep', params: { index } },
    initial: 'entering',
    states: {
      entering: {
        always: [
          {
            guard: 'budgetSpent',
            target: FAILED,
            actions: failAction('STEP_BUDGET_EXHAUSTED', {
              message: 'StepBudgetExhausted: the workflow used its budget of step runs (raise it with --tool-max-steps)',
            }),
          },
          { target: at('calling'), actions: 'countRun' },
        ],
      },
      calling,
      judging: {
        always: [
          {
            guard: 'wasDryRun',
            target: nextTarget(plan, index),
            reenter: true,
            actions: { type: 'recordStep', params: { stepId: step.stepId } },
          },
          { guard: 'stepSucceeded', target: at('onSuccess') },
          { target: at('onFailure') },
        ],
      },
      onSuccess: {
        entry: { type: 'recordStep', params: { stepId: step.stepId } },
        always: [
          ...step.onSuccess.flatMap((action) => successTransitions(plan, step, action)),
          { target: nextTarget(plan, index), reenter: true, description: 'next step' },
        ],
      },
      onFailure: {
        always: [
          ...step.onFailure.flatMap((action) => failureTransitions(plan, step, index, action)),
          {
            target: FAILED,
            description: 'no failure action applies',
            actions: [
              { type: 'recordStep', params: { stepId: step.stepId } },
              failAction('STEP_FAILED', {}),
            ],
          },
        ],
      },
      backoff: {
        after: { retryDelay: { target: at('entering') } },
      },
    },
  };
}

function gotoTarget(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): string {
  const target = action.targetIndex === undefined ? undefined : plan.steps[action.targetIndex];
  if (!target) throw new Error(`step ${step.stepId}: goto action "${action.name}" has no target step`);
  return stepTarget(action.targetIndex!, target.stepId);
}

function unsupportedTransition(step: StepPlan, action: ActionPlan, recordFirst: boolean): object {
  const actions: object[] = [];
  if (recordFirst) actions.push({ type: 'recordStep', params: { stepId: step.stepId } });
  actions.push({ type: 'fail', params: { code: 'UNSUPPORTED', stepId: step.stepId, message: action.unsupported } });
  return {
    guard: { type: 'criteriaHold', params: { criteriaId: action.criteriaId } },
    target: FAILED,
    description: action.label,
    actions,
  };
}

/** When an action's criteria cannot be evaluated (an ordering comparison on a non-number), the step fails. */
function brokenCriteriaTransitions(step: StepPlan, action: ActionPlan, recordFirst: boolean): object[] {
  if (!action.criteriaCanFail || action.criteriaId === undefined) return [];
  const actions: object[] = [];
  if (recordFirst) actions.push({ type: 'recordStep', params: { stepId: step.stepId } });
  actions.push({ type: 'failOnCriteria', params: { stepId: step.stepId, criteriaId: action.criteriaId, action: action.name } });
  return [
    {
      guard: { type: 'criteriaBroken', params: { criteriaId: action.criteriaId } },
      target: FAILED,
      description: `${action.label} (criteria cannot be evaluated)`,
      actions,
    },
  ];
}

function successTransitions(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): object[] {
  return [...brokenCriteriaTransitions(step, action, false), successTransition(plan, step, action)];
}

function successTransition(plan: WorkflowPlan, step: StepPlan, action: ActionPlan): object {
  if (action.unsupported) return unsupportedTransition(step, action, false);
  const guard = { type: 'criteriaHold', params: { criteriaId: action.criteriaId } };
  switch (action.type) {
    case 'end':
      return { guard, target: SUCCEEDED, description: action.label };
    case 'goto':
      return { guard, target: gotoTarget(plan, step, action), reenter: true, description: action.label };
    default:
      throw new Error(`step ${step.stepId}: a success chain cannot hold a ${action.type} action ("${action.name}")`);
  }
}

function failureTransitions(plan: WorkflowPlan, step: StepPlan, index: number, action: ActionPlan): object[] {
  if (action.unsupported) return [unsupportedTransition(step, action, true)];
  return [...brokenCriteriaTransitions(step, action, true), ...actionTransitions(plan, step, index, action)];
}

function actionTransitions(plan: WorkflowPlan, step: StepPlan, index: number, action: ActionPlan): object[] {
  const guard = { type: 'criteriaHold', params: { criteriaId: action.criteriaId } };
  const record = (failedVia?: FailedVia) => ({ type: 'recordStep', params: { stepId: step.stepId, failedVia } });
  switch (action.type) {
    case 'end':
      return [
        {
          guard,
          target: FAILED,
          description: action.label,
          actions: [
            record('on-failure-end'),
            {
              type: 'fail',
              params: {
                code: 'END_ACTION',
                stepId: step.stepId,
                template: `failure action "${action.name}" ended the workflow: {reason}`,
              },
            },
          ],
        },
      ];
    case 'goto':
      return [
        { guard, target: gotoTarget(plan, step, action), reenter: true, description: action.label, actions: record('on-failure-goto') },
      ];
    case 'retry':
      return [
        {
          guard: { type: 'retryAllowed', params: { criteriaId: action.criteriaId, retryLimit: action.retryLimit } },
          target: stepTarget(index, step.stepId, 'backoff'),
          description: action.label,
          actions: [record(), { type: 'scheduleRetry', params: { retryAfterSeconds: action.retryAfterSeconds } }],
        },
        {
          guard,
          target: FAILED,
          description: `${action.label} (limit reached)`,
          actions: [
            record(),
            {
              type: 'fail',
              params: {
                code: 'RETRIES_EXHAUSTED',
                stepId: step.stepId,
                template: `retry action "${action.name}" reached its limit of ${action.retryLimit} ${action.retryLimit === 1 ? 'retry' : 'retries'}; last error: {reason}`,
              },
            },
          ],
        },
      ];
  }
}

export type WorkflowMachine = ReturnType<typeof compileWorkflow>;
