/**
 * Step parameters against the operation they go to: a path parameter that nothing fills is an
 * error, a parameter the operation does not declare a warning with the closest name. Workflow
 * parameters, `$components.parameters` references and `in` all count as the runner counts them.
 */
import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../../src/arazzo/finding.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import type { SourceOperations } from '../../../src/arazzo/check-operations.js';

const OPERATIONS: SourceOperations = new Map([
  [
    'getPetCoupons',
    {
      method: 'GET',
      path: '/pet/{petId}/coupons',
      parameters: [
        { name: 'petId', in: 'path' },
        { name: 'X-Store', in: 'header' },
      ],
      pathTemplate: [{ literal: '/pet/' }, { param: 'petId' }, { literal: '/coupons' }],
    },
  ],
  ['findPets', { method: 'GET', path: '/pets', parameters: [{ name: 'tags', in: 'query' }], pathTemplate: [{ literal: '/pets' }] }],
]);

async function findings(workflows: string, components = ''): Promise<string[]> {
  const text = `arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions:
  - { name: pets, url: ./pets.yaml }
workflows:
${workflows}
${components}`;
  const doc = parseDocumentText(text, 'flow.arazzo.yaml', '/tmp/flow.arazzo.yaml');
  const found: Finding[] = await validateDocument(doc, { loadOperations: async () => OPERATIONS });
  return found.map((f) => `${f.severity} ${f.code}@${f.pointer}: ${f.message}`);
}

const step = (parameters: string) => `  - workflowId: main
    steps:
      - stepId: coupons
        operationId: getPetCoupons
        parameters: ${parameters}`;

describe('validate: parameters against the operation', () => {
  it('reports an unfilled path parameter as an error, and a near miss as a warning that names it (pet-coupons)', async () => {
    expect(await findings(step('[{ name: pet_id, in: path, value: 1 }]'))).toEqual([
      'error MISSING_PATH_PARAMETER@/workflows/0/steps/0/parameters: operation "getPetCoupons" (GET /pet/{petId}/coupons) needs path parameter "petId", which no parameter of step "coupons" fills; add one with name: petId and in: path',
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/0/name: parameter "pet_id" (in: path) is not a parameter of operation "getPetCoupons" (GET /pet/{petId}/coupons) (did you mean "petId"?)',
    ]);
  });

  it('finds nothing when the step fills the path parameter', async () => {
    expect(await findings(step('[{ name: petId, in: path, value: 1 }]'))).toEqual([]);
  });

  it('does not count a parameter of the right name in another location', async () => {
    const found = await findings(step('[{ name: petId, in: query, value: 1 }]'));
    expect(found.map((f) => f.split(':')[0])).toEqual(['error MISSING_PATH_PARAMETER@/workflows/0/steps/0/parameters', 'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/0/name']);
  });

  it('counts a workflow-level parameter, and does not report workflow parameters the operation lacks', async () => {
    const workflows = `  - workflowId: main
    parameters:
      - { name: petId, in: path, value: 1 }
      - { name: session, in: cookie, value: s }
    steps:
      - { stepId: coupons, operationId: getPetCoupons }`;
    expect(await findings(workflows)).toEqual([]);
  });

  it('counts a $components.parameters reference, and reports one the operation does not declare at its reference', async () => {
    const components = `components:
  parameters:
    pet: { name: petId, in: path, value: 1 }
    tag: { name: tag, in: query, value: x }`;
    expect(await findings(step('[{ reference: $components.parameters.pet }]'), components)).toEqual([]);
    expect(await findings(step('[{ reference: $components.parameters.pet }, { reference: $components.parameters.tag }]'), components)).toEqual([
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/1/reference: parameter "tag" (in: query) is not a parameter of operation "getPetCoupons" (GET /pet/{petId}/coupons)',
    ]);
  });

  it('suggests a close query parameter name', async () => {
    const workflows = `  - workflowId: main
    steps:
      - { stepId: find, operationId: findPets, parameters: [{ name: tag, in: query, value: x }] }`;
    expect(await findings(workflows)).toEqual([
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/0/name: parameter "tag" (in: query) is not a parameter of operation "findPets" (GET /pets) (did you mean "tags"?)',
    ]);
  });

  it('matches headers without regard to case, and leaves undeclared headers alone unless one is a near miss', async () => {
    const headers = '[{ name: petId, in: path, value: 1 }, { name: x-store, in: header, value: a }, { name: X-Request-Id, in: header, value: b }, { name: X-Stor, in: header, value: c }]';
    expect(await findings(step(headers))).toEqual([
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/3/name: parameter "X-Stor" (in: header) is not a parameter of operation "getPetCoupons" (GET /pet/{petId}/coupons) (did you mean "X-Store"?)',
    ]);
  });

  it('checks nothing for a step whose operation was not found', async () => {
    const workflows = `  - workflowId: main
    steps:
      - { stepId: x, operationId: nope }`;
    expect((await findings(workflows)).map((f) => f.split('@')[0])).toEqual(['error OPERATION_NOT_FOUND']);
  });
});
