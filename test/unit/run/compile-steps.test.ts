import { describe, expect, it } from '@jest/globals';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { prepareWorkflow } from '../../../src/run/prepare-workflow.js';

/** Steps that call nested workflows need no bound sources, which is all these tests look at. */
function dataRead(yaml: string): Record<string, boolean> {
  const doc = parseDocumentText(yaml, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
  const { programs } = prepareWorkflow(doc.model, doc.model.workflows[0]!, [], []);
  return Object.fromEntries(programs.map((p) => [p.stepId, p.dataRead]));
}

const HEADER = `
arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions: [{ name: api, url: ./api.yaml }]
`;

describe('prepareWorkflow: which steps later expressions read the request or response of', () => {
  it('marks the steps named by $steps.<id>.request or .response anywhere in the document, and no others', () => {
    expect(
      dataRead(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, workflowId: other }
      - { stepId: b, workflowId: other }
      - { stepId: c-1, workflowId: other, outputs: { x: $steps.a.outputs.x } }
      - stepId: d
        workflowId: other
        parameters: [{ name: q, value: 'id={$steps.c-1.response.body#/id}' }]
    outputs:
      sent: $steps.b.request.header.x-id
`),
    ).toEqual({ a: false, b: true, 'c-1': true, d: false });
  });

  it('marks every step when a step id has characters a reference could not be matched by', () => {
    expect(
      dataRead(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a.b, workflowId: other }
      - { stepId: c, workflowId: other }
`),
    ).toEqual({ 'a.b': true, c: true });
  });
});
