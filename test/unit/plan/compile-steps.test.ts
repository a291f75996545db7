import { describe, expect, it } from '@jest/globals';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { prepareWorkflow } from '../../../src/plan/prepare-workflow.js';

/**
 * Which steps are marked, found both ways: from the document's text (as a run does) and by walking
 * its values (a document without text); the two must agree. Steps that call nested workflows need
 * no bound sources, which is all these tests look at.
 */
function dataRead(text: string): Record<string, boolean> {
  const marked = (withText: boolean) => {
    // A document parsed afresh each time: the search is remembered per document.
    const doc = parseDocumentText(text, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
    const { programs } = prepareWorkflow(doc.model, doc.model.workflows[0]!, [], [], undefined, withText ? { text } : {});
    return Object.fromEntries(programs.map((p) => [p.stepId, p.dataRead]));
  };
  const fromText = marked(true);
  expect(marked(false)).toEqual(fromText);
  return fromText;
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

  it('finds references written with escapes (the text is not searched when it has a backslash)', () => {
    // YAML double-quoted \x24 and JSON \u0024 are "$": the text never spells the reference out.
    expect(
      dataRead(`${HEADER}
workflows:
  - workflowId: wf
    steps:
      - { stepId: a, workflowId: other }
      - { stepId: b, workflowId: other }
      - { stepId: c, workflowId: other, outputs: { x: "\\x24steps.a.response.body" } }
`),
    ).toEqual({ a: true, b: false, c: false });
    const json = JSON.stringify({
      arazzo: '1.0.1',
      info: { title: 't', version: '1' },
      sourceDescriptions: [{ name: 'api', url: './api.yaml' }],
      workflows: [{ workflowId: 'wf', steps: [{ stepId: 'a', workflowId: 'other' }, { stepId: 'b', workflowId: 'other', outputs: { x: 'ESCAPEDsteps.a.request.url' } }] }],
    }).replace('ESCAPED', '\\u0024');
    expect(dataRead(json)).toEqual({ a: true, b: false });
  });

  it('finds references in block scalars and multi-line values, as written', () => {
    expect(
      dataRead(`${HEADER}
workflows:
  - workflowId: wf
    description: |
      Reads $steps.a.response.body later.
    steps:
      - { stepId: a, workflowId: other }
      - { stepId: b, workflowId: other }
      - stepId: c
        workflowId: other
        description: >-
          folded $steps.b.
          response is not a reference
`),
    ).toEqual({ a: true, b: false, c: false });
  });

  it('searches the text when it is given one (a name in a comment counts there, generously), and walks the values otherwise', () => {
    const text = `${HEADER}
workflows:
  - workflowId: wf
    steps:
      # later: $steps.a.response.body
      - { stepId: a, workflowId: other }
      - { stepId: b, workflowId: other }
`;
    const marked = (withText: boolean) => {
      const doc = parseDocumentText(text, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
      return prepareWorkflow(doc.model, doc.model.workflows[0]!, [], [], undefined, withText ? { text } : {}).programs.map((p) => p.dataRead);
    };
    expect(marked(true)).toEqual([true, false]);
    expect(marked(false)).toEqual([false, false]);
  });
});
