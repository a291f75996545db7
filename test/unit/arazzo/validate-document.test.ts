import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../../src/arazzo/finding.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import { V2_PROFILE } from '../../../src/arazzo/runner-profile.js';
import { codesAt, findingsOf, loadFixture } from './fixtures.js';

const severityOf = (findings: Finding[], code: string) => [...new Set(findings.filter((f) => f.code === code).map((f) => f.severity))];

describe('validateDocument: the spec table', () => {
  it('finds nothing in a clean document that uses actions, references and a qualified operationId', async () => {
    expect(await findingsOf('clean.arazzo.yaml')).toEqual([]);
    expect(await findingsOf('clean.arazzo.json')).toEqual([]);
  });

  it('reports a document without workflows as an error', async () => {
    const findings = await findingsOf('no-workflows.arazzo.yaml');
    expect(findings).toEqual([
      { code: 'NO_WORKFLOWS', severity: 'error', pointer: '/workflows', line: 8, col: 1, message: 'the document declares no workflows; add at least one under "workflows"' },
    ]);
  });

  it('reports a step with no operation as an error and one with two as an error too', async () => {
    const findings = await findingsOf('step-operations.arazzo.yaml');
    expect(codesAt(findings)).toEqual([
      'STEP_WITHOUT_OPERATION@/workflows/0/steps/0',
      'STEP_OPERATION_CONFLICT@/workflows/0/steps/1/operationPath',
      'OPERATION_PATH_UNSUPPORTED@/workflows/0/steps/1/operationPath',
    ]);
    expect(findings.map((f) => f.severity)).toEqual(['error', 'error', 'warning']);
    expect(findings[0]?.message).toBe('step "nothing" has none of operationId, operationPath, workflowId; say what the step calls');
  });

  it('counts an operation field the model drops (not a string) as present, also after a steps entry that is not an object', async () => {
    const text = 'arazzo: 1.0.1\ninfo: {title: t, version: v}\nsourceDescriptions: [{name: a, url: b}]\nworkflows:\n  - workflowId: w\n    steps:\n      - 5\n      - {stepId: s, operationId: 7, workflowId: other}\n      - {stepId: u, operationId: 8}\n';
    const codes = codesAt(await validateDocument(parseDocumentText(text, 'f.yaml', '/f.yaml')));
    expect(codes).toContain('STEP_OPERATION_CONFLICT@/workflows/0/steps/1/workflowId');
    expect(codes).toContain('NESTED_WORKFLOW_UNSUPPORTED@/workflows/0/steps/1/workflowId');
    expect(codes.filter((code) => code.startsWith('STEP_WITHOUT_OPERATION') || code.startsWith('STEP_OPERATION_CONFLICT'))).toEqual(['STEP_OPERATION_CONFLICT@/workflows/0/steps/1/workflowId']);
  });

  it('warns about operationPath, nested workflows and jsonpath success criteria, with no errors', async () => {
    const findings = await findingsOf('warnings.arazzo.yaml');
    expect(codesAt(findings)).toEqual([
      'OPERATION_PATH_UNSUPPORTED@/workflows/0/steps/0/operationPath',
      'SUCCESS_CRITERION_SKIPPED@/workflows/0/steps/0/successCriteria/1/type',
      'NESTED_WORKFLOW_UNSUPPORTED@/workflows/0/steps/1/workflowId',
    ]);
    expect(findings.every((f) => f.severity === 'warning')).toBe(true);
  });
});

describe('validateDocument: structure', () => {
  it('reports an unsupported version and every missing required field', async () => {
    const findings = await findingsOf('required-fields.arazzo.yaml');
    expect(findings.map((f) => f.message)).toEqual([
      'arazzo version "1.1.0" is not supported; this runner reads Arazzo 1.0.x (e.g. "1.0.1")',
      'info has no "title" (required)',
      'info has no "version" (required)',
      'sourceDescriptions[0] has no "name" (required)',
      'sourceDescriptions[0] has no "url" (required)',
      'workflows[0] has no "workflowId" (required)',
      'workflows[0] has no "steps" (required)',
      'workflows[1].steps[0] has no "stepId" (required)',
    ]);
    expect(findings.map((f) => f.code)).toEqual(['UNSUPPORTED_VERSION', ...Array(7).fill('MISSING_FIELD')]);
  });

  it('reports a cycle through dependsOn and nested calls as DEPENDS_ON_CYCLE (v2), naming its path', async () => {
    const text = [
      'arazzo: 1.0.1',
      'info: {title: t, version: v}',
      'sourceDescriptions: [{name: a, url: b}]',
      'workflows:',
      '  - workflowId: main',
      '    dependsOn: [helper]',
      '    steps: [{stepId: s, workflowId: leaf}]',
      '  - workflowId: helper',
      '    steps: [{stepId: callBack, workflowId: middle}]',
      '  - workflowId: middle',
      '    steps: [{stepId: again, workflowId: main}]',
      '  - workflowId: leaf',
      '    steps: [{stepId: t, workflowId: middle2}]',
      '  - workflowId: middle2',
      '    steps: [{stepId: u, workflowId: leaf2}]',
      '  - workflowId: leaf2',
      '    steps: [{stepId: v, operationId: o}]',
    ].join('\n');
    const findings = await validateDocument(parseDocumentText(text, 'c.yaml', '/c.yaml'), { profile: V2_PROFILE });
    const cycles = findings.filter((f) => f.code === 'DEPENDS_ON_CYCLE');
    expect(cycles.map((f) => [f.severity, f.pointer, f.message])).toEqual([
      ['error', '/workflows/0/dependsOn/0', 'dependsOn and nested calls or transfers form a cycle: main → helper → middle → main; "main" waits for "helper", which cannot finish without it'],
    ]);
  });

  it('reports a cycle through dependsOn and a transfer (goto workflowId): the dependency hands the run back to the workflow waiting for it', async () => {
    const text = [
      'arazzo: 1.0.1',
      'info: {title: t, version: v}',
      'sourceDescriptions: [{name: a, url: b}]',
      'workflows:',
      '  - workflowId: main',
      '    dependsOn: [prepare]',
      '    steps: [{stepId: s, operationId: o}]',
      '  - workflowId: prepare',
      '    steps:',
      '      - stepId: p',
      '        operationId: o',
      '        onSuccess: [{name: back, type: goto, workflowId: main}]',
    ].join('\n');
    const findings = await validateDocument(parseDocumentText(text, 'c.yaml', '/c.yaml'), { profile: V2_PROFILE });
    expect(findings.filter((f) => f.code === 'DEPENDS_ON_CYCLE').map((f) => [f.pointer, f.message])).toEqual([
      ['/workflows/0/dependsOn/0', 'dependsOn and nested calls or transfers form a cycle: main → prepare → main; "main" waits for "prepare", which cannot finish without it'],
    ]);
  });

  it('refuses output names Arazzo does not allow and an expression type whose version is not a string', async () => {
    const text = [
      'arazzo: 1.0.1',
      'info: {title: t, version: v}',
      'sourceDescriptions: [{name: a, url: b}]',
      'workflows:',
      '  - workflowId: w',
      '    outputs: {"the total": $steps.s.outputs.ok, ok.v-1_2: $steps.s.outputs.ok}',
      '    steps:',
      '      - stepId: s',
      '        operationId: o',
      '        outputs: {ok: $statusCode, "bad/name": $statusCode}',
      '        successCriteria:',
      '          - {condition: $.a, context: $response.body, type: {type: jsonpath, version: 42}}',
    ].join('\n');
    const findings = await validateDocument(parseDocumentText(text, 'o.yaml', '/o.yaml'));
    expect(codesAt(findings).filter((c) => /INVALID_OUTPUT_NAME|INVALID_TYPE/.test(c))).toEqual([
      'INVALID_OUTPUT_NAME@/workflows/0/outputs/the total',
      'INVALID_OUTPUT_NAME@/workflows/0/steps/0/outputs/bad~1name',
      'INVALID_TYPE@/workflows/0/steps/0/successCriteria/0/type',
    ]);
    expect(findings.find((f) => f.code === 'INVALID_OUTPUT_NAME')?.severity).toBe('error');
  });

  it('reports fields of the wrong type without crashing, and a misspelt field as a warning', async () => {
    const findings = await findingsOf('wrong-types.arazzo.yaml');
    expect(codesAt(findings)).toEqual([
      'INVALID_TYPE@/workflows/0/steps',
      'INVALID_TYPE@/workflows/1/outputs',
      'INVALID_TYPE@/workflows/1/steps/0/onSuccess',
      'UNKNOWN_FIELD@/workflows/1/steps/0/successCritera',
      'INVALID_TYPE@/workflows/1/steps/0/outputs/count',
      'INVALID_TYPE@/workflows/1/steps/1',
    ]);
    expect(findings[0]?.message).toBe('"steps" must be a list, found the number 3');
    expect(findings[3]).toMatchObject({ severity: 'warning', message: 'unknown field "successCritera" is ignored (did you mean "successCriteria"?)' });
  });

  it('reports a numeric arazzo version and a missing one', async () => {
    const numeric = await validateDocument(parseDocumentText('arazzo: 1.0\ninfo: {title: t, version: v}\nsourceDescriptions: [{name: a, url: b}]\nworkflows: [{workflowId: w, steps: [{stepId: s, operationId: o}]}]\n', 'n.yaml', '/n.yaml'));
    expect(codesAt(numeric)).toEqual(['UNSUPPORTED_VERSION@/arazzo']);
    const missing = await validateDocument(parseDocumentText('info: {title: t, version: v}\nsourceDescriptions: [{name: a, url: b}]\nworkflows: [{workflowId: w, steps: [{stepId: s, operationId: o}]}]\n', 'm.yaml', '/m.yaml'));
    expect(missing.map((f) => f.message)).toEqual(['the document has no "arazzo" (required)']);
  });

  it('reports empty sourceDescriptions and empty steps', async () => {
    const doc = parseDocumentText('arazzo: 1.0.1\ninfo: {title: t, version: v}\nsourceDescriptions: []\nworkflows: [{workflowId: w, steps: []}]\n', 'e.yaml', '/e.yaml');
    expect(codesAt(await validateDocument(doc))).toEqual(['NO_SOURCES@/sourceDescriptions', 'NO_STEPS@/workflows/0/steps']);
  });

  it('reports duplicate source names, step ids and workflow ids', async () => {
    expect(codesAt(await findingsOf('duplicates.arazzo.yaml'))).toEqual([
      'DUPLICATE_SOURCE_NAME@/sourceDescriptions/1/name',
      'DUPLICATE_STEP_ID@/workflows/0/steps/1/stepId',
      'DUPLICATE_WORKFLOW_ID@/workflows/1/workflowId',
    ]);
  });
});

describe('validateDocument: actions', () => {
  it('reports each action the v1 runner cannot dispatch', async () => {
    const findings = await findingsOf('actions.arazzo.yaml');
    const step = '/workflows/0/steps/0';
    expect(findings.map((f) => `${f.severity} ${f.code}@${f.pointer}`)).toEqual([
      `error UNKNOWN_GOTO_STEP@${step}/onSuccess/0/stepId`,
      `error RETRY_IN_SUCCESS_CHAIN@${step}/onSuccess/1/type`,
      // The spec rejects these only when the run reaches them: warnings, in validate as in run.
      `warning CROSS_WORKFLOW_GOTO@${step}/onSuccess/2/workflowId`,
      `error MISSING_GOTO_TARGET@${step}/onFailure/0`,
      `warning ACTION_NOT_SUPPORTED@${step}/onFailure/1/type`,
      `error UNKNOWN_ACTION_TYPE@${step}/onFailure/2/type`,
      `error INVALID_RETRY_LIMIT@${step}/onFailure/3/retryLimit`,
      `error INVALID_RETRY_AFTER@${step}/onFailure/3/retryAfter`,
      `error INVALID_RETRY_LIMIT@${step}/onFailure/4/retryLimit`,
      `error INVALID_RETRY_AFTER@${step}/onFailure/4/retryAfter`,
      `warning UNSUPPORTED_ACTION_CRITERION@${step}/onFailure/5/criteria/0/type`,
      `warning CRITERION_CONTEXT_UNSUPPORTED@${step}/onFailure/6/criteria/0/context`,
    ]);
    expect(findings[2]?.message).toMatch(/not supported by the v1 runner.*\(runs with --tool-runner v2\)$/);
    expect(findings[4]?.message).toContain('replay is not implemented');
  });

  it('checks references: form, kind, existence, and a component goto target per workflow', async () => {
    const findings = await findingsOf('references.arazzo.yaml');
    expect(codesAt(findings)).toEqual([
      'UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/0/reference', // listPets declares no limit
      'UNKNOWN_COMPONENT@/workflows/0/steps/0/parameters/1/reference',
      'INVALID_REFERENCE@/workflows/0/steps/0/parameters/2/reference',
      'REFERENCE_KIND_MISMATCH@/workflows/0/steps/0/onSuccess/0/reference',
      'UNKNOWN_COMPONENT@/workflows/0/steps/0/onFailure/0/reference',
      'INVALID_REFERENCE@/workflows/0/steps/0/onFailure/1/reference',
      'INVALID_REFERENCE@/workflows/0/steps/0/onFailure/2/reference',
      'UNKNOWN_GOTO_STEP@/workflows/1/steps/0/onSuccess/0/reference',
      'RETRY_IN_SUCCESS_CHAIN@/components/successActions/retryHere/type',
    ]);
    expect(findings[7]?.message).toBe('goto action "toStart" goes to step "first", which workflow "other" does not have');
  });
});

describe('validateDocument: expressions', () => {
  it('reports expressions that do not parse, point nowhere, or read what does not exist yet', async () => {
    const findings = await findingsOf('expressions.arazzo.yaml');
    expect(findings.map((f) => `${f.severity} ${f.code}@${f.pointer}`)).toEqual([
      // listPets declares no parameters, so each is also unknown to it.
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/0/name',
      'error EXPRESSION_SYNTAX@/workflows/0/steps/0/parameters/0/value',
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/1/name',
      'warning FORWARD_STEP_REFERENCE@/workflows/0/steps/0/parameters/1/value',
      'warning UNKNOWN_PARAMETER@/workflows/0/steps/0/parameters/2/name',
      'error RESPONSE_NOT_AVAILABLE@/workflows/0/steps/0/parameters/2/value',
      'warning EXPRESSION_KEPT_LITERAL@/workflows/0/steps/0/requestBody/payload/filter',
      'error UNKNOWN_STEP@/workflows/0/steps/0/requestBody/payload/owner',
      'error CONDITION_SYNTAX@/workflows/0/steps/0/successCriteria/0/condition',
      'error EXPRESSION_SYNTAX@/workflows/0/steps/0/outputs/broken',
      'error UNKNOWN_STEP_OUTPUT@/workflows/0/steps/1/parameters/0/value',
      'error RESPONSE_NOT_AVAILABLE@/workflows/0/outputs/noStep',
      'error UNKNOWN_SOURCE@/workflows/0/outputs/unknownSource',
    ]);
  });

  it("includes the parser's message", async () => {
    const findings = (await findingsOf('expressions.arazzo.yaml')).filter((f) => f.code !== 'UNKNOWN_PARAMETER');
    expect(findings[0]?.message).toBe('"$inputs." is not a valid runtime expression: expected an input name after "$inputs.", but the expression ends');
    expect(findings[5]?.message).toMatch(/^condition `\$statusCode ==` does not parse: .+/);
    expect(findings[7]?.message).toBe('$steps.first.outputs.total: step "first" has no output "total" (it declares "count", "broken")');
  });
});

describe('validateDocument: parameters and operations', () => {
  it('reports an invalid in, and a missing in only where the step calls an operation', async () => {
    const findings = await findingsOf('parameters.arazzo.yaml');
    expect(codesAt(findings)).toEqual([
      // in: body fills no path parameter, so getPet's {petId} stays empty.
      'MISSING_PATH_PARAMETER@/workflows/0/steps/0/parameters',
      'INVALID_PARAMETER_LOCATION@/workflows/0/steps/0/parameters/0/in',
      'MISSING_FIELD@/workflows/0/steps/0/parameters/1',
      'NESTED_WORKFLOW_UNSUPPORTED@/workflows/1/steps/0/workflowId',
    ]);
  });

  it('reports operationIds missing from a local source, with a suggestion', async () => {
    const findings = await findingsOf('operations.arazzo.yaml');
    expect(codesAt(findings)).toEqual([
      'OPERATION_NOT_FOUND@/workflows/0/steps/1/operationId',
      'OPERATION_NOT_FOUND@/workflows/0/steps/2/operationId',
      'UNKNOWN_SOURCE@/workflows/0/steps/3/operationId',
    ]);
    expect(findings[0]?.message).toBe('operation "getpet" is not in source "pets" (./pets.openapi.yaml) (did you mean "getPet"?)');
  });

  it('handles several sources: qualified ids, ambiguity, remote sources skipped and an unreadable one reported', async () => {
    expect(codesAt(await findingsOf('multi-source.arazzo.yaml'))).toEqual([
      'SOURCE_NOT_CHECKED@/sourceDescriptions/3/url',
      'AMBIGUOUS_OPERATION_ID@/workflows/0/steps/1/operationId',
      'OPERATION_NOT_FOUND@/workflows/0/steps/6/operationId',
    ]);
  });

  it('loads each source once and asks for it by the url as written', async () => {
    const asked: string[] = [];
    const doc = await loadFixture('multi-source.arazzo.yaml');
    await validateDocument(doc, {
      loadOperations: async (url) => {
        asked.push(url);
        return undefined;
      },
    });
    expect(asked.sort()).toEqual(['./no-such-description.yaml', './pets.openapi.yaml', './store.openapi.yaml', 'https://example.invalid/openapi.yaml']);
  });

  it('skips operation checks when no loader is given', async () => {
    expect(await validateDocument(await loadFixture('operations.arazzo.yaml'))).toEqual([
      expect.objectContaining({ code: 'UNKNOWN_SOURCE' }),
    ]);
  });
});

describe('validateDocument: ordering', () => {
  it('sorts findings by line and column', async () => {
    const findings = await findingsOf('expressions.arazzo.yaml');
    const keys = findings.map((f) => (f.line ?? 0) * 1000 + (f.col ?? 0));
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(severityOf(findings, 'FORWARD_STEP_REFERENCE')).toEqual(['warning']);
  });
});

describe('validateDocument: hostile keys', () => {
  it('treats keys such as __proto__ and constructor as plain data', async () => {
    const doc = await loadFixture('prototype-keys.arazzo.yaml');
    const first = doc.model.workflows[0]?.steps[0];
    expect(Object.keys(first?.outputs ?? {})).toEqual(['__proto__', 'toString']);
    expect(Object.getPrototypeOf(first?.outputs)).toBe(Object.prototype);
    expect(Object.keys(doc.model.components?.failureActions ?? {})).toEqual(['__proto__']);
    expect(codesAt(await validateDocument(doc))).toEqual([
      'UNKNOWN_FIELD@/info/constructor',
      'UNKNOWN_COMPONENT@/workflows/0/steps/0/onFailure/0/reference',
      'UNKNOWN_STEP_OUTPUT@/workflows/0/steps/1/parameters/1/value',
    ]);
  });
});
