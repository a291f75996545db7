/**
 * Runner profiles: which runner contract a run, a validation or a graph follows, as data. The
 * engine runs all of Arazzo 1.0.1; a profile says which constructs it runs and which it refuses,
 * which semantics apply where the contracts differ, and how it words a refusal
 * (/work/shared/spec/arazzo-runner-v1.md, -v2.md; docs/arazzo-coverage.md). Code asks the profile
 * a question (`profile.runsNestedWorkflows`); this module and the flag parser
 * (src/cli/runner-flag.ts) are the only places that name a contract.
 */

/**
 * The name of a runner contract, as the run report records it: `v1` and `v2`, which
 * `--tool-runner` and `TOOL_RUNNER` choose for Arazzo 1.0.x documents, and `arazzo-1.1`, which a
 * document's `arazzo: 1.1.x` chooses.
 */
export type RunnerName = 'v1' | 'v2' | 'arazzo-1.1';

/** The Arazzo feature set (the `major.minor` of the `arazzo` field) a profile reads. */
export type FeatureSet = '1.0' | '1.1';

/** How a profile words a construct it does not run (the reason of the step's UNSUPPORTED failure, or a usage error). */
export interface RefusalTexts {
  /** A success criterion with a context. */
  successCriterionContext(context: string): string;
  /** A success criterion of a type the profile does not evaluate, described (`regex criterion "x"`): the warning when it is skipped. */
  skippedCriterion(stepId: string, described: string): string;
  /** Why a step whose success criteria were all skipped succeeds only on a 2xx status. */
  skippedCriteriaNote: string;
  /** An action's criterion of a type the profile does not evaluate. */
  actionCriterionType(action: string, type: string): string;
  /** An action's criterion with a context. */
  actionCriterionContext(action: string, context: string): string;
  operationPath(): string;
  replacements(): string;
  /** A nested workflow step the run cannot call. */
  nestedWorkflow(workflowId: string): string;
  /** A goto to a workflow the run cannot reach. */
  workflowGoto(action: string, workflowId: string): string;
  /** A retry that runs a step or a workflow (`what`: `step "x"`, `workflow "y"`) first. */
  retryTarget(action: string, what: string): string;
  replay(action: string): string;
  /** A workflow with dependsOn: where it is (`file:line:col`), its id and the ids it names, quoted. */
  dependsOn(where: string, workflowId: string, names: string): string;
  /** `--tool-bind`: the message and the hint of the usage error. */
  bind: { message: string; hint: string };
}

/** How a profile words, in `validate`, a construct it refuses (the warning's message; its code is fixed). */
export interface FindingTexts {
  /** A step labelled `label` (`step "a"`) with an operationPath. */
  operationPath(label: string): string;
  nestedWorkflow(label: string, workflowId: string): string;
  replacements(stepId: string): string;
  dependsOn(workflowId: string, names: string): string;
  arazzoSource(name: string): string;
  replay(action: string): string;
  workflowGoto(action: string, workflowId: string): string;
  /** A retry labelled `label` (`retry action "r"`) naming `what` (`step "x"`, `workflow "y"`). */
  retryTarget(label: string, what: string): string;
  successCriterionType(type: string): string;
  actionCriterionType(type: string): string;
  criterionContext(): string;
}

/** A runner contract as the questions code asks of it. */
export interface RunnerProfile {
  readonly name: RunnerName;
  /** An Arazzo 1.1 document asked to run with this profile by name runs with the 1.1 profile (else the request is refused: the contract covers 1.0.x only). */
  readonly yieldsToArazzo11: boolean;
  /** The newest Arazzo feature set the profile reads: `1.1` reads 1.1.x documents (and their 1.0.x sources) with 1.1's fields and rules. */
  readonly featureSet: FeatureSet;
  /** A step's `timeout` (ms) aborts its request and fails the step (1.1). */
  readonly runsStepTimeouts: boolean;
  /** A goto or retry action's `parameters` are passed to its `workflowId` target as inputs (1.1). */
  readonly passesActionParameters: boolean;
  /** `in: querystring` parameters set the whole query string (1.1). */
  readonly sendsQuerystring: boolean;
  /** A step's `dependsOn` and its output references order the steps (1.1). */
  readonly ordersStepsByDependencies: boolean;
  /** operationPath steps run (else they fail with UNSUPPORTED). */
  readonly runsOperationPaths: boolean;
  /** Nested workflow steps, gotos to workflows, retries that run a step or workflow first and Arazzo sources run; the run prepares every workflow it can reach. */
  readonly runsNestedWorkflows: boolean;
  /** A workflow's dependsOn workflows run first (else the run is refused before anything is sent). */
  readonly runsDependencies: boolean;
  /** requestBody.replacements are applied (else the step fails before sending). */
  readonly appliesReplacements: boolean;
  /** regex, jsonpath and xpath criteria are evaluated (else only simple ones: a success criterion of another type is skipped, an action's fails the step). */
  readonly evaluatesTypedCriteria: boolean;
  /** A criterion with a `context` fails the step (else the context is read, or ignored by a simple criterion). */
  readonly refusesCriterionContext: boolean;
  /** A step's chain is its own actions then the workflow's it does not name (else: the step's chain, or the workflow's when it has none). */
  readonly mergesChains: boolean;
  /** A retry whose limit is reached lets the chain go on to the next action whose criteria hold (else the step fails with RETRIES_EXHAUSTED at once). */
  readonly retryLimitContinuesChain: boolean;
  /** Each retry action of a step counts its own retries against its own retryLimit (else the step's retries, whichever action made them, count against every action's limit). */
  readonly countsRetriesPerAction: boolean;
  /** Step records carry `workflowId`. */
  readonly recordsWorkflowId: boolean;
  /** Inputs are checked against the workflow's inputs schema, strings from the command line coerced to its types; `--input k:=json` is read. */
  readonly typesInputs: boolean;
  /** `--tool-bind` is accepted. */
  readonly allowsBind: boolean;
  /** Validation adds the checks of the constructs this profile runs (typed criteria, workflow calls, operationPath, replacements, the Arazzo version; check-v2.ts). */
  readonly checksRunConstructs: boolean;
  /** The words after a construct this version does not run yet although its contract does; undefined when the contract has none such. */
  readonly notYetText?: string;
  /** How a refused construct fails a run (UNSUPPORTED's reason) or a command (usage error). */
  readonly refusals: RefusalTexts;
  /** How `validate` warns of a refused construct. */
  readonly findings: FindingTexts;
}

/** The end of every v1 message about a construct it refuses, in findings and at runtime. */
const RUNS_WITH_V2 = '(runs with --tool-runner v2)';

/** What v2 says of a construct its contract runs but this version does not yet. */
const NOT_YET_V2_TEXT = 'not yet supported by the v2 runner in this version';

const V1_REFUSALS: RefusalTexts = {
  successCriterionContext: (context) => `a success criterion has a context ("${context}"), which is not supported in v1 ${RUNS_WITH_V2}`,
  skippedCriterion: (stepId, described) => `step "${stepId}": ${described} is skipped: only simple criteria run in v1 ${RUNS_WITH_V2}`,
  skippedCriteriaNote: 'its successCriteria were skipped as unsupported in v1',
  actionCriterionType: (action, type) => `action "${action}": criteria of type ${type} are not supported in v1 ${RUNS_WITH_V2}`,
  actionCriterionContext: (action, context) => `action "${action}": a criterion with a context ("${context}") is not supported in v1 ${RUNS_WITH_V2}`,
  operationPath: () => `operationPath steps are not supported in v1; use operationId ${RUNS_WITH_V2}`,
  replacements: () => `requestBody.replacements are not supported in v1, and the body would be wrong without them; nothing was sent ${RUNS_WITH_V2}`,
  nestedWorkflow: (workflowId) => `nested workflow steps ("${workflowId}") are not supported in v1 ${RUNS_WITH_V2}`,
  workflowGoto: (action, workflowId) => `action "${action}": goto to another workflow ("${workflowId}") is not supported in v1 ${RUNS_WITH_V2}`,
  retryTarget: (action, what) => `action "${action}": a retry that goes on to ${what} is not supported in v1 ${RUNS_WITH_V2}`,
  replay: (action) => `action "${action}": replay is not implemented in v1 ${RUNS_WITH_V2}`,
  dependsOn: (where, workflowId, names) => `${where}: workflow "${workflowId}" depends on ${names}, and dependsOn is not supported by the v1 runner; nothing was sent ${RUNS_WITH_V2}`,
  bind: {
    message: `--tool-bind is not supported by the v1 runner ${RUNS_WITH_V2}`,
    hint: 'Bind the source with x-tool-api: <api-name> on its sourceDescriptions entry, or run with --tool-runner v2.',
  },
};

const V1_FINDINGS: FindingTexts = {
  operationPath: (label) => `${label} uses operationPath, which the v1 runner does not support; the step fails at runtime, use operationId ${RUNS_WITH_V2}`,
  nestedWorkflow: (label, workflowId) => `${label} runs workflow "${workflowId}"; nested workflows are not supported by the v1 runner, so the step fails at runtime ${RUNS_WITH_V2}`,
  replacements: (stepId) => `step "${stepId}" has requestBody.replacements, which the v1 runner does not apply; the step fails before its request is sent ${RUNS_WITH_V2}`,
  dependsOn: (workflowId, names) => `workflow "${workflowId}" depends on ${names}; the v1 runner does not run dependencies, so it refuses to run this workflow ${RUNS_WITH_V2}`,
  arazzoSource: (name) => `source "${name}" is an Arazzo document; the v1 runner only calls OpenAPI sources, so steps that use it fail at runtime ${RUNS_WITH_V2}`,
  replay: (action) => `action "${action}": replay is not implemented in the v1 runner and fails when the action is dispatched; use retry or goto ${RUNS_WITH_V2}`,
  workflowGoto: (action, workflowId) =>
    `goto action "${action}" jumps to workflow "${workflowId}"; a goto to another workflow is not supported by the v1 runner and fails when the action is dispatched ${RUNS_WITH_V2}`,
  retryTarget: (label, what) => `${label} names ${what}; a retry with a target is not supported by the v1 runner and fails when the action is dispatched ${RUNS_WITH_V2}`,
  successCriterionType: (type) => `${type} success criteria are not supported by the v1 runner; this criterion will be skipped (with a warning) at runtime ${RUNS_WITH_V2}`,
  actionCriterionType: (type) => `${type} criteria on an action are not supported by the v1 runner and fail when the action is considered; use a simple condition ${RUNS_WITH_V2}`,
  criterionContext: () => `a simple criterion with a context is not supported by the v1 runner and fails when it is evaluated; drop "context" and put the expression in the condition ${RUNS_WITH_V2}`,
};

/** The v1 contract (the default): one workflow of one document, simple criteria, replace-style chains. */
export const V1_PROFILE: RunnerProfile = {
  name: 'v1',
  yieldsToArazzo11: false,
  featureSet: '1.0',
  runsStepTimeouts: false,
  passesActionParameters: false,
  sendsQuerystring: false,
  ordersStepsByDependencies: false,
  runsOperationPaths: false,
  runsNestedWorkflows: false,
  runsDependencies: false,
  appliesReplacements: false,
  evaluatesTypedCriteria: false,
  refusesCriterionContext: true,
  mergesChains: false,
  retryLimitContinuesChain: false,
  countsRetriesPerAction: false,
  recordsWorkflowId: false,
  typesInputs: false,
  allowsBind: false,
  checksRunConstructs: false,
  refusals: V1_REFUSALS,
  findings: V1_FINDINGS,
};

/** The v2 contract: all of Arazzo 1.0.1 within one run (nested, dependent and transferred workflows, every criterion type). */
export const V2_PROFILE: RunnerProfile = {
  name: 'v2',
  yieldsToArazzo11: true,
  featureSet: '1.0',
  runsStepTimeouts: false,
  passesActionParameters: false,
  sendsQuerystring: false,
  ordersStepsByDependencies: false,
  runsOperationPaths: true,
  runsNestedWorkflows: true,
  runsDependencies: true,
  appliesReplacements: true,
  evaluatesTypedCriteria: true,
  refusesCriterionContext: false,
  mergesChains: true,
  retryLimitContinuesChain: true,
  countsRetriesPerAction: true,
  recordsWorkflowId: true,
  typesInputs: true,
  allowsBind: true,
  checksRunConstructs: true,
  notYetText: NOT_YET_V2_TEXT,
  refusals: {
    ...V1_REFUSALS,
    // v2 runs nested steps, gotos and retries to workflows it can reach: what it refuses is a workflow of another Arazzo document it cannot.
    nestedWorkflow: (workflowId) => `a nested workflow step calling a workflow of another Arazzo document ("${workflowId}"): ${NOT_YET_V2_TEXT}`,
    workflowGoto: (action, workflowId) => `action "${action}": a goto to a workflow of another Arazzo document ("${workflowId}"): ${NOT_YET_V2_TEXT}`,
    retryTarget: (action, what) => `action "${action}": a retry that runs a workflow of another Arazzo document (${what}): ${NOT_YET_V2_TEXT}`,
    replay: (action) => `action "${action}": replay is not an Arazzo 1.0.1 action type; use retry or goto`,
  },
  // v2 refuses only replay among these (the others it runs, and validate checks them itself: check-v2.ts).
  findings: {
    ...V1_FINDINGS,
    replay: (action) => `action "${action}": replay is not an Arazzo 1.0.1 action type and fails when the action is dispatched; use retry or goto`,
  },
};

/** What the 1.1 profile says of a 1.1 construct this version does not run yet. */
const NOT_YET_1_1_TEXT = 'not yet supported for Arazzo 1.1 documents in this version';

/**
 * Arazzo 1.1: the v2 engine and semantics with 1.1's additions (step timeouts, action parameters,
 * `in: querystring`, step dependencies, the 1.1 validation rules). A document's `arazzo: 1.1.x`
 * chooses it (documentProfile); no flag names it.
 */
export const ARAZZO_1_1_PROFILE: RunnerProfile = {
  ...V2_PROFILE,
  name: 'arazzo-1.1',
  featureSet: '1.1',
  runsStepTimeouts: true,
  passesActionParameters: true,
  sendsQuerystring: true,
  ordersStepsByDependencies: true,
  notYetText: NOT_YET_1_1_TEXT,
  refusals: {
    ...V2_PROFILE.refusals,
    nestedWorkflow: (workflowId) => `a nested workflow step calling a workflow of another Arazzo document ("${workflowId}"): ${NOT_YET_1_1_TEXT}`,
    workflowGoto: (action, workflowId) => `action "${action}": a goto to a workflow of another Arazzo document ("${workflowId}"): ${NOT_YET_1_1_TEXT}`,
    retryTarget: (action, what) => `action "${action}": a retry that runs a workflow of another Arazzo document (${what}): ${NOT_YET_1_1_TEXT}`,
    replay: (action) => `action "${action}": replay is not an Arazzo 1.1 action type; use retry or goto`,
  },
  findings: {
    ...V2_PROFILE.findings,
    replay: (action) => `action "${action}": replay is not an Arazzo 1.1 action type and fails when the action is dispatched; use retry or goto`,
  },
};

/** The profiles `--tool-runner` and `TOOL_RUNNER` choose from, by name; the first is the default. */
export const RUNNER_PROFILES: readonly RunnerProfile[] = [V1_PROFILE, V2_PROFILE];

/** The default profile (v1). */
export const DEFAULT_PROFILE: RunnerProfile = V1_PROFILE;

/** The profile of a name, or undefined for a name no profile has. */
export function profileNamed(name: string): RunnerProfile | undefined {
  return RUNNER_PROFILES.find((profile) => profile.name === name);
}

const ARAZZO_1_1 = /^1\.1\.\d+$/;

/**
 * The profile a document runs with: an `arazzo: 1.1.x` document chooses the 1.1 profile unless the
 * v1 contract was asked for by name (`from`: `--tool-runner`, `TOOL_RUNNER`, `tool.config.yaml`),
 * which covers 1.0.x only: then the refusal's words. Any other document keeps the requested profile.
 */
export function documentProfile(requested: RunnerProfile, version: unknown, from?: string): { profile: RunnerProfile } | { refused: string } {
  if (typeof version !== 'string' || !ARAZZO_1_1.test(version)) return { profile: requested };
  if (from !== undefined && !requested.yieldsToArazzo11) {
    return { refused: `${from} asks for the ${requested.name} runner, whose contract covers Arazzo 1.0.x documents only, and this document is Arazzo ${version}` };
  }
  return { profile: ARAZZO_1_1_PROFILE };
}

/** Whether a document is read with Arazzo 1.1's fields and rules: a 1.1.x document under a profile of the 1.1 feature set (a 1.0.x source it reads keeps 1.0's). */
export function readsAs11(profile: RunnerProfile, version: string | undefined): boolean {
  return profile.featureSet === '1.1' && version !== undefined && ARAZZO_1_1.test(version);
}
