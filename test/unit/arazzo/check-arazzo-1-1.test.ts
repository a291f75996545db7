/** Arazzo 1.1 step dependsOn on steps of other workflows: what validation says of each form. */
import { describe, expect, it } from '@jest/globals';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { ARAZZO_1_1_PROFILE } from '../../../src/arazzo/runner-profile.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';

const doc = (dependsOn: string) => `arazzo: 1.1.0
info: {title: t, version: v}
sourceDescriptions:
  - {name: api, url: ./x.yaml}
  - {name: lib, url: ./lib.arazzo.yaml, type: arazzo}
workflows:
  - workflowId: setup
    steps: [{stepId: login, operationId: op}]
  - workflowId: main
    steps: [{stepId: use, operationId: op, dependsOn: ['${dependsOn}']}]
`;

async function codes(dependsOn: string): Promise<string[]> {
  const findings = await validateDocument(parseDocumentText(doc(dependsOn), 'f.yaml', '/f.yaml'), { profile: ARAZZO_1_1_PROFILE });
  return findings.filter((f) => f.pointer.endsWith('/dependsOn/0')).map((f) => `${f.code}: ${f.message}`);
}

describe('step dependsOn on another workflow\'s step (Arazzo 1.1)', () => {
  it('accepts a step of a workflow of the document, and a step of a workflow of an Arazzo source', async () => {
    expect(await codes('$workflows.setup.steps.login')).toEqual([]);
    expect(await codes('$sourceDescriptions.lib.flow.steps.first')).toEqual([]);
  });

  it('names an unknown workflow, an unknown step, a source that is not Arazzo, and a malformed reference', async () => {
    expect(await codes('$workflows.setpu.steps.login')).toEqual(['UNKNOWN_WORKFLOW: step "use" depends on $workflows.setpu.steps.login, but the document has no workflow "setpu" (did you mean "setup"?)']);
    expect(await codes('$workflows.setup.steps.logon')).toEqual(['UNKNOWN_STEP: step "use" depends on $workflows.setup.steps.logon, but workflow "setup" has no step "logon" (did you mean "login"?)']);
    expect(await codes('$sourceDescriptions.api.flow.steps.first')).toEqual(['UNKNOWN_SOURCE: step "use" depends on $sourceDescriptions.api.flow.steps.first, but source "api" is not of type arazzo']);
    expect((await codes('$workflows.setup')).map((line) => line.split(':')[0])).toEqual(['INVALID_REFERENCE']);
  });
});
