/**
 * v2 validation of operationPath steps: the step's parameters are checked against the operation
 * the pointer names (its path item's parameters included), and nothing is looked up without a loader.
 */
import { describe, expect, it } from '@jest/globals';
import type { PathOperations } from '../../../src/arazzo/check-operation-paths.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import { V2_PROFILE } from '../../../src/arazzo/runner-profile.js';

const OPERATIONS: PathOperations = [
  {
    method: 'GET',
    path: '/pets/{petId}',
    parameters: [
      { name: 'petId', in: 'path' },
      { name: 'verbose', in: 'query' },
    ],
    pathTemplate: [{ literal: '/pets/' }, { param: 'petId' }],
  },
];

async function findings(step: string, withLoader = true): Promise<string[]> {
  const text = `arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions:
  - { name: pets, url: ./pets.yaml }
workflows:
  - workflowId: main
    steps:
${step}`;
  const doc = parseDocumentText(text, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
  const found = await validateDocument(doc, { profile: V2_PROFILE, ...(withLoader ? { loadPathOperations: async () => OPERATIONS } : {}) });
  return found.map((f) => `${f.severity} ${f.code}@${f.pointer}: ${f.message}`);
}

describe('operationPath steps under v2 validation', () => {
  it('reports a path parameter the step does not fill, and a parameter the operation does not declare', async () => {
    const found = await findings(`      - stepId: a
        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets~1{petId}/get'
        parameters:
          - { name: verbos, in: query, value: 'true' }`);
    expect(found).toEqual([
      'error MISSING_PATH_PARAMETER@/workflows/0/steps/0/parameters: the operation at operationPath (GET /pets/{petId}) needs path parameter "petId", which no parameter of step "a" fills; add one with name: petId and in: path',
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/0/name: parameter "verbos" (in: query) is not a parameter of the operation at operationPath (GET /pets/{petId}) (did you mean "verbose"?)',
    ]);
  });

  it('accepts a step whose parameters fit, with no v1 warning', async () => {
    expect(await findings(`      - stepId: a
        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets~1{petId}/get'
        parameters:
          - { name: petId, in: path, value: 1 }`)).toEqual([]);
  });

  it('checks the form and the source without reading the description, and no more', async () => {
    expect(await findings("      - { stepId: a, operationPath: '{$sourceDescriptions.pets.url}#/paths/~1nowhere/get' }", false)).toEqual([]);
    expect(await findings("      - { stepId: a, operationPath: '{$sourceDescriptions.pet.url}#/paths/~1nowhere/get' }", false)).toEqual([
      'error UNKNOWN_SOURCE@/workflows/0/steps/0/operationPath: step "a": operationPath names source "pet", which the document does not declare (did you mean "pets"?)',
    ]);
  });
});
