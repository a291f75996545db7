import { describe, expect, it } from '@jest/globals';
import { ARAZZO_1_1_PROFILE, V2_PROFILE } from '../../../src/arazzo/runner-profile.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import { codesAt, loadFixture } from './fixtures.js';

describe('validateDocument (Arazzo 1.1): selectors, expression types and the 1.1 grammar', () => {
  it('reports bad selectors, types and versions, jsonpointer criteria and $message.payload.<name>, each where it is', async () => {
    const findings = await validateDocument(await loadFixture('selectors-1-1.arazzo.yaml'), { profile: ARAZZO_1_1_PROFILE });
    const codes = codesAt(findings);
    expect(codes).toEqual(
      expect.arrayContaining([
        'INVALID_SELECTOR@/workflows/0/steps/0/parameters/0/value/selector',
        'CRITERION_SYNTAX@/workflows/0/steps/0/successCriteria/0/condition',
        'INVALID_EXPRESSION_TYPE@/workflows/0/steps/0/successCriteria/1/type',
        'MESSAGE_PAYLOAD_PATH@/workflows/0/steps/0/successCriteria/3/condition',
        'INVALID_SELECTOR@/workflows/0/steps/0/outputs/a/context',
        'INVALID_EXPRESSION_TYPE@/workflows/0/steps/0/outputs/b/type',
        'EXPRESSION_VERSION_APPROXIMATED@/workflows/0/steps/0/outputs/c/type',
        'EXPRESSION_VERSION_APPROXIMATED@/workflows/0/steps/0/outputs/d/type',
        'INVALID_TYPE@/workflows/0/steps/0/outputs/e/selector',
        'INVALID_SELECTOR@/workflows/0/steps/0/outputs/i/selector',
      ]),
    );
    // rfc9535 is 1.1's name for the default JSONPath; $message and $self parse; embedded expressions in a selector are filled in first.
    expect(codes.filter((code) => /successCriteria\/2|outputs\/[fgh]\b/.test(code))).toEqual([]);
    const byCode = (code: string) => findings.find((f) => f.code === code)!;
    expect(byCode('INVALID_EXPRESSION_TYPE').message).toBe('criterion jsonpointer version "rfc9999" is not one of rfc6901');
    expect(findings.find((f) => f.pointer.endsWith('outputs/b/type'))!.message).toBe('selector type "yaml" is not one of jsonpath, xpath, jsonpointer');
    expect(byCode('MESSAGE_PAYLOAD_PATH')).toMatchObject({ severity: 'warning', line: 24 });
    expect(byCode('MESSAGE_PAYLOAD_PATH').message).toContain('`$message.payload#/orderId`');
    expect(findings.find((f) => f.pointer.endsWith('outputs/a/context'))!.message).toContain('"$nope.x" is not a valid runtime expression');
    expect(byCode('INVALID_SELECTOR').line).toBe(13);
    // An output's field of the wrong type is structural validation's finding, reported once.
    expect(codes.filter((code) => code.includes('outputs/e'))).toEqual(['INVALID_TYPE@/workflows/0/steps/0/outputs/e/selector']);
  });

  it('checks a typed replacement target: a jsonpath must compile, a type must be allowed', async () => {
    const text = `arazzo: 1.1.0
info: {title: t, version: v}
sourceDescriptions: [{name: a, url: ./x.yaml}]
workflows:
  - workflowId: w
    steps:
      - stepId: s
        operationId: op
        requestBody:
          contentType: application/json
          payload: {a: [1, 2]}
          replacements:
            - {target: '$.a[*]', targetSelectorType: jsonpath, value: 0}
            - {target: '$.a[', targetSelectorType: jsonpath, value: 0}
            - {target: '/a/0', targetSelectorType: {type: jsonpointer, version: rfc6901}, value: 0}
            - {target: '/a/0', targetSelectorType: csv, value: 0}
`;
    const codes = codesAt(await validateDocument(parseDocumentText(text, 'f.yaml', '/f.yaml'), { profile: ARAZZO_1_1_PROFILE }));
    expect(codes.filter((code) => code.includes('replacements'))).toEqual([
      'REPLACEMENT_TARGET_SYNTAX@/workflows/0/steps/0/requestBody/replacements/1/target',
      'INVALID_EXPRESSION_TYPE@/workflows/0/steps/0/requestBody/replacements/3/targetSelectorType',
    ]);
  });

  it('leaves a 1.0.1 document as it was: no selector checks, $message is not an expression, jsonpointer is an unknown criterion type', async () => {
    const text = `arazzo: 1.0.1
info: {title: t, version: v}
sourceDescriptions: [{name: a, url: ./x.yaml}]
workflows:
  - workflowId: w
    steps:
      - stepId: s
        operationId: op
        requestBody:
          payload: {x: {context: $nope, selector: '$[', type: yaml}}
        successCriteria:
          - {context: $response.body, condition: /a, type: jsonpointer}
        outputs:
          m: $message.payload#/a
`;
    const codes = codesAt(await validateDocument(parseDocumentText(text, 'f.yaml', '/f.yaml'), { profile: V2_PROFILE }));
    expect(codes).toEqual(
      expect.arrayContaining(['UNKNOWN_CRITERION_TYPE@/workflows/0/steps/0/successCriteria/0/type', 'EXPRESSION_SYNTAX@/workflows/0/steps/0/outputs/m']),
    );
    expect(codes.some((code) => /INVALID_SELECTOR|INVALID_EXPRESSION_TYPE/.test(code))).toBe(false);
  });
});
