import { describe, expect, it } from '@jest/globals';
import { ARAZZO_1_1_PROFILE, DEFAULT_PROFILE, documentProfile, profileNamed, RUNNER_PROFILES, V1_PROFILE, V2_PROFILE, type RunnerProfile } from '../../../src/arazzo/runner-profile.js';

/** The questions code asks a profile, each profile's answer (docs/architecture.md, "Runner profiles"). */
const QUESTIONS = [
  'runsOperationPaths',
  'runsNestedWorkflows',
  'runsDependencies',
  'appliesReplacements',
  'evaluatesTypedCriteria',
  'refusesCriterionContext',
  'mergesChains',
  'retryLimitContinuesChain',
  'countsRetriesPerAction',
  'recordsWorkflowId',
  'typesInputs',
  'allowsBind',
  'checksRunConstructs',
  'runsStepTimeouts',
  'passesActionParameters',
  'sendsQuerystring',
  'ordersStepsByDependencies',
] as const satisfies ReadonlyArray<keyof RunnerProfile>;

function answers(profile: RunnerProfile): Record<string, boolean> {
  return Object.fromEntries(QUESTIONS.map((question) => [question, profile[question]]));
}

describe('runner profiles', () => {
  it('choose v1 by default and find each profile by its name', () => {
    expect(DEFAULT_PROFILE).toBe(V1_PROFILE);
    expect(RUNNER_PROFILES.map((profile) => profile.name)).toEqual(['v1', 'v2']);
    expect(profileNamed('v1')).toBe(V1_PROFILE);
    expect(profileNamed('v2')).toBe(V2_PROFILE);
    expect(profileNamed('v3')).toBeUndefined();
  });

  it('v1 runs one workflow of one document with simple criteria, and refuses the rest', () => {
    expect(answers(V1_PROFILE)).toEqual({
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
      runsStepTimeouts: false,
      passesActionParameters: false,
      sendsQuerystring: false,
      ordersStepsByDependencies: false,
    });
    expect(V1_PROFILE.notYetText).toBeUndefined();
  });

  it('v2 runs every Arazzo 1.0.1 construct with the v2 semantics', () => {
    expect(answers(V2_PROFILE)).toEqual({
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
      runsStepTimeouts: false,
      passesActionParameters: false,
      sendsQuerystring: false,
      ordersStepsByDependencies: false,
    });
    expect(V2_PROFILE.notYetText).toBe('not yet supported by the v2 runner in this version');
  });

  it('v1 words a refusal by pointing at the v2 runner', () => {
    const says = V1_PROFILE.refusals;
    expect(says.operationPath()).toBe('operationPath steps are not supported in v1; use operationId (runs with --tool-runner v2)');
    expect(says.nestedWorkflow('other')).toBe('nested workflow steps ("other") are not supported in v1 (runs with --tool-runner v2)');
    expect(says.replay('r')).toBe('action "r": replay is not implemented in v1 (runs with --tool-runner v2)');
    expect(says.workflowGoto('x', 'other')).toBe('action "x": goto to another workflow ("other") is not supported in v1 (runs with --tool-runner v2)');
    expect(says.bind.message).toBe('--tool-bind is not supported by the v1 runner (runs with --tool-runner v2)');
    expect(says.skippedCriterion('a', 'regex criterion "x"')).toBe('step "a": regex criterion "x" is skipped: only simple criteria run in v1 (runs with --tool-runner v2)');
  });

  it('words the validate findings of refused constructs: v1 points at v2, v2 calls replay no Arazzo action', () => {
    expect(V1_PROFILE.findings.operationPath('step "a"')).toBe('step "a" uses operationPath, which the v1 runner does not support; the step fails at runtime, use operationId (runs with --tool-runner v2)');
    expect(V1_PROFILE.findings.retryTarget('retry action "r"', 'step "b"')).toBe('retry action "r" names step "b"; a retry with a target is not supported by the v1 runner and fails when the action is dispatched (runs with --tool-runner v2)');
    expect(V1_PROFILE.findings.replay('r')).toBe('action "r": replay is not implemented in the v1 runner and fails when the action is dispatched; use retry or goto (runs with --tool-runner v2)');
    expect(V2_PROFILE.findings.replay('r')).toBe('action "r": replay is not an Arazzo 1.0.1 action type and fails when the action is dispatched; use retry or goto');
  });

  it('v2 words what it does not run yet, and replay as no Arazzo action', () => {
    const says = V2_PROFILE.refusals;
    expect(says.nestedWorkflow('src.wf')).toBe('a nested workflow step calling a workflow of another Arazzo document ("src.wf"): not yet supported by the v2 runner in this version');
    expect(says.workflowGoto('x', 'src.wf')).toBe('action "x": a goto to a workflow of another Arazzo document ("src.wf"): not yet supported by the v2 runner in this version');
    expect(says.retryTarget('r', 'workflow "src.wf"')).toBe('action "r": a retry that runs a workflow of another Arazzo document (workflow "src.wf"): not yet supported by the v2 runner in this version');
    expect(says.replay('r')).toBe('action "r": replay is not an Arazzo 1.0.1 action type; use retry or goto');
  });

  it('Arazzo 1.1 is the v2 engine with 1.1\'s additions, chosen by the document, never by name', () => {
    expect(answers(ARAZZO_1_1_PROFILE)).toEqual({ ...answers(V2_PROFILE), runsStepTimeouts: true, passesActionParameters: true, sendsQuerystring: true, ordersStepsByDependencies: true });
    expect([V1_PROFILE.featureSet, V2_PROFILE.featureSet, ARAZZO_1_1_PROFILE.featureSet]).toEqual(['1.0', '1.0', '1.1']);
    expect([V1_PROFILE.yieldsToArazzo11, V2_PROFILE.yieldsToArazzo11, ARAZZO_1_1_PROFILE.yieldsToArazzo11]).toEqual([false, true, true]);
    expect(profileNamed('arazzo-1.1')).toBeUndefined();
    expect(documentProfile(V1_PROFILE, '1.1.0')).toEqual({ profile: ARAZZO_1_1_PROFILE });
    expect(documentProfile(V2_PROFILE, '1.1.3', '--tool-runner')).toEqual({ profile: ARAZZO_1_1_PROFILE });
    expect(documentProfile(V1_PROFILE, '1.1.0', '--tool-runner')).toEqual({ refused: '--tool-runner asks for the v1 runner, whose contract covers Arazzo 1.0.x documents only, and this document is Arazzo 1.1.0' });
    expect(documentProfile(V1_PROFILE, '1.0.1', '--tool-runner')).toEqual({ profile: V1_PROFILE });
    expect(documentProfile(V2_PROFILE, '2.0.0')).toEqual({ profile: V2_PROFILE });
  });
});
