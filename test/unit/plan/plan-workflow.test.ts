import { describe, expect, it } from '@jest/globals';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { planStep, planWorkflow, PlanError, stepIndexOf, type StepCriteria } from '../../../src/plan/plan-workflow.js';

/** The plan of the first workflow, and the action criteria prepared for its first step. */
function plan(yaml: string) {
  const doc = parseDocumentText(yaml, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
  const workflow = doc.model.workflows[0]!;
  const first: StepCriteria = { successCriteria: [], skippedCriteria: [], actionCriteria: [] };
  planStep(doc.model, workflow, workflow.steps[0]!, stepIndexOf(workflow), first);
  return { ...planWorkflow(doc.model, workflow), criteria: first.actionCriteria };
}

const HEADER = `
arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions: [{ name: api, url: ./api.yaml }]
`;

describe('planWorkflow', () => {
  it('applies the workflow chain when a step has no onFailure', () => {
    const { plan: p } = plan(`${HEADER}
workflows:
  - workflowId: wf
    failureActions: [{ name: stop, type: end }]
    steps:
      - { stepId: a, operationId: op }
`);
    expect(p.steps[0]!.onFailure.map((a) => a.name)).toEqual(['stop']);
    expect(p.steps[0]!.onFailureFrom).toBe('workflow');
  });

  it('opts out of the workflow chain with an empty onFailure', () => {
    const { plan: p } = plan(`${HEADER}
workflows:
  - workflowId: wf
    failureActions: [{ name: stop, type: end }]
    successActions: [{ name: done, type: end }]
    steps:
      - { stepId: a, operationId: op, onFailure: [], onSuccess: [] }
`);
    expect(p.steps[0]!.onFailure).toEqual([]);
    expect(p.steps[0]!.onSuccess).toEqual([]);
    expect(p.steps[0]!.onFailureFrom).toBe('none');
  });

  it("lets a non-empty step chain win over the workflow's", () => {
    const { plan: p } = plan(`${HEADER}
workflows:
  - workflowId: wf
    failureActions: [{ name: stop, type: end }]
    steps:
      - stepId: a
        operationId: op
        onFailure: [{ name: again, type: retry, retryAfter: 2, retryLimit: 3, criteria: [{ condition: $statusCode == 503 }] }]
`);
    const [action] = p.steps[0]!.onFailure;
    expect(p.steps[0]!.onFailure).toHaveLength(1);
    expect(action).toMatchObject({ name: 'again', type: 'retry', retryAfterSeconds: 2, retryLimit: 3, criteriaId: 0 });
    expect(action!.label).toBe('onFailure: again (retry x3 after 2s) [$statusCode == 503]');
  });

  it('resolves $components references and defaults retryLimit to 1 and retryAfter to 0', () => {
    const { plan: p, criteria } = plan(`${HEADER}
components:
  failureActions:
    retryOnce: { name: retryOnce, type: retry, criteria: [{ condition: $statusCode >= 500 }] }
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, onFailure: [{ reference: $components.failureActions.retryOnce }] }
`);
    expect(p.steps[0]!.onFailure[0]).toMatchObject({ name: 'retryOnce', retryLimit: 1, retryAfterSeconds: 0 });
    expect(criteria[0]!.map((c) => c.source)).toEqual(['$statusCode >= 500']);
  });

  it('rejects a reference that is not exactly $components.<kind>.<name>', () => {
    expect(() =>
      plan(`${HEADER}
components: { failureActions: { x: { name: x, type: end } } }
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, onFailure: [{ reference: '$components.failureActions.x.extra' }] }
`),
    ).toThrow(PlanError);
    expect(() =>
      plan(`${HEADER}
components: { successActions: { x: { name: x, type: end } } }
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, onFailure: [{ reference: $components.successActions.x }] }
`),
    ).toThrow(/names a successAction but is used as a failureAction/);
  });

  it('resolves goto targets to step indexes and rejects unknown ones', () => {
    const { plan: p } = plan(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, onFailure: [{ name: g, type: goto, stepId: c }] }
      - { stepId: b, operationId: op }
      - { stepId: c, operationId: op }
`);
    expect(p.steps[0]!.onFailure[0]!.targetIndex).toBe(2);
    expect(() =>
      plan(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, onFailure: [{ name: g, type: goto, stepId: nowhere }] }
`),
    ).toThrow(/targets step "nowhere"/);
  });

  it('marks v1-unsupported actions so they fail at dispatch, not at planning', () => {
    const { plan: p } = plan(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - stepId: a
        operationId: op
        onFailure:
          - { name: r, type: replay }
          - { name: x, type: goto, workflowId: other }
          - { name: j, type: end, criteria: [{ type: jsonpath, context: $response.body, condition: $.ok }] }
          - { name: c, type: end, criteria: [{ context: $response.body, condition: $statusCode == 500 }] }
`);
    const messages = p.steps[0]!.onFailure.map((a) => a.fails?.reason);
    expect(messages[0]).toMatch(/replay is not implemented in v1/);
    expect(messages[1]).toMatch(/goto to another workflow \("other"\)/);
    expect(messages[2]).toMatch(/criteria of type jsonpath/);
    expect(messages[3]).toMatch(/context/);
  });

  it('marks operationPath and nested workflow steps as unsupported at runtime', () => {
    const { plan: p } = plan(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationPath: '{$sourceDescriptions.api.url}#/paths/~1pets/get' }
      - { stepId: b, workflowId: other }
      - { stepId: c, operationId: op }
`);
    expect(p.steps.map((s) => s.fails?.reason)).toEqual([
      'operationPath steps are not supported in v1; use operationId (runs with --tool-runner v2)',
      'nested workflow steps ("other") are not supported in v1 (runs with --tool-runner v2)',
      undefined,
    ]);
  });

  it('skips a typed success criterion under v1, with the profile\'s warning and note', () => {
    const doc = parseDocumentText(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, successCriteria: [{ type: regex, context: $statusCode, condition: '^2' }] }
`, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
    const workflow = doc.model.workflows[0]!;
    const criteria: StepCriteria = { successCriteria: [], skippedCriteria: [], actionCriteria: [] };
    planStep(doc.model, workflow, workflow.steps[0]!, stepIndexOf(workflow), criteria);
    expect(criteria.skippedCriteria).toEqual(['step "a": regex criterion `^2` is skipped: only simple criteria run in v1 (runs with --tool-runner v2)']);
    expect(criteria.skippedNote).toBe('its successCriteria were skipped as unsupported in v1');
    expect(criteria.successCriteria).toEqual([]);
  });

  it('refuses a retry in a success chain', () => {
    expect(() =>
      plan(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, operationId: op, onSuccess: [{ name: again, type: retry }] }
`),
    ).toThrow(/cannot be a success action/);
  });
});
