/**
 * `validate` and `run` agree on every finding code of docs/cli.md: for each, a minimal document
 * that triggers it. An error makes validate exit 10 and run exit 10 before any request; a warning
 * leaves validate at 0, and run prints it and goes on (what happens next is the construct's own
 * runtime behaviour). Then the one place they differ on purpose: errors in workflows a run cannot
 * reach are warnings for that run.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/arazzo/finding.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const ROUTES = {
  'GET /a': { body: { n: 1 } },
  'GET /b': {},
  'GET /c': {},
  'GET /items': {},
  'POST /items': { status: 201, body: { id: 1 } },
};

interface Parts {
  arazzo?: string;
  info?: string;
  sources?: string;
  steps?: string;
  /** Lines inside the `main` workflow, before `steps`. */
  main?: string;
  /** More workflows, whole list items. */
  more?: string;
  components?: string;
  /** The whole `workflows` section, instead of `main` and `more`. */
  workflows?: string;
}

const SOURCE = '  - { name: api, url: ./api.openapi.yaml }';
const STEP_A = '      - { stepId: a, operationId: getA }';
const OTHER = '  - workflowId: other\n    steps:\n      - { stepId: b, operationId: getB }';

function doc(p: Parts): string {
  const workflows = p.workflows ?? `workflows:\n  - workflowId: main\n${p.main ?? ''}    steps:\n${p.steps ?? STEP_A}\n${p.more ?? ''}`;
  return [
    `arazzo: ${p.arazzo ?? '1.0.1'}`,
    `info: ${p.info ?? "{ title: t, version: '1' }"}`,
    `sourceDescriptions:${p.sources === undefined ? `\n${SOURCE}` : p.sources}`,
    workflows,
    p.components === undefined ? '' : `components:\n${p.components}`,
    '',
  ].join('\n');
}

/**
 * `run`: its arguments; after a warning, its exit code when the construct decides it (else only
 * "not 10"); `refused`: exit 2, the run's own error about the source (the finding is not its);
 * `unloadable`: the document does not load at all, in either command (exit 10, nothing on stdout).
 */
type Row = [code: string, severity: 'error' | 'warning', document: string, run?: { args?: string[]; exit?: number; refused?: boolean; unloadable?: boolean }];

const withStep = (step: string) => doc({ steps: `${STEP_A}\n${step}` });
const onFailure = (action: string) => doc({ steps: `      - stepId: a\n        operationId: getA\n        onFailure:\n          - ${action}` });

const TABLE: Row[] = [
  ['UNSUPPORTED_VERSION', 'error', doc({ arazzo: '2.0.0' })],
  ['MISSING_FIELD', 'error', doc({ info: "{ version: '1' }" })],
  ['INVALID_TYPE', 'error', doc({ steps: '      - { stepId: a, operationId: getA, outputs: [x] }' })],
  ['UNUSUAL_ID', 'warning', doc({ steps: "      - { stepId: 'a step', operationId: getA }" }), { exit: 0 }],
  ['UNKNOWN_FIELD', 'warning', doc({ steps: '      - { stepId: a, operationId: getA, successCritera: [] }' }), { exit: 0 }],
  ['NO_WORKFLOWS', 'error', doc({ workflows: 'workflows: []' })],
  ['NO_STEPS', 'error', doc({ workflows: 'workflows:\n  - { workflowId: main, steps: [] }' })],
  ['NO_SOURCES', 'error', doc({ sources: ' []' })],
  ['DUPLICATE_WORKFLOW_ID', 'error', doc({ more: OTHER.replace('other', 'main') }), { args: ['--workflow', 'main'] }],
  ['DUPLICATE_STEP_ID', 'error', withStep('      - { stepId: a, operationId: getB }')],
  ['DUPLICATE_SOURCE_NAME', 'error', doc({ sources: `\n${SOURCE}\n${SOURCE}` })],
  ['INVALID_SOURCE_TYPE', 'error', doc({ sources: '\n  - { name: api, url: ./api.openapi.yaml, type: asyncapi }' })],
  ['UNSUPPORTED_SOURCE_TYPE', 'warning', doc({ sources: `\n${SOURCE}\n  - { name: flows, url: ./flows.arazzo.yaml, type: arazzo }` }), { exit: 0 }],
  ['UNKNOWN_WORKFLOW', 'error', doc({ main: '    outputs: { x: $workflows.nope.outputs.y }\n' })],
  ['DEPENDS_ON_UNSUPPORTED', 'warning', doc({ main: '    dependsOn: [other]\n', more: OTHER }), { args: ['--workflow', 'main'], exit: 1 }],
  ['STEP_WITHOUT_OPERATION', 'error', doc({ steps: '      - { stepId: a }' })],
  ['STEP_OPERATION_CONFLICT', 'error', doc({ steps: "      - { stepId: a, operationId: getA, operationPath: '#/paths/~1a/get' }" })],
  ['OPERATION_PATH_UNSUPPORTED', 'warning', withStep("      - { stepId: b, operationPath: '#/paths/~1b/get' }"), { exit: 1 }],
  ['NESTED_WORKFLOW_UNSUPPORTED', 'warning', doc({ steps: `${STEP_A}\n      - { stepId: b, workflowId: other }`, more: OTHER }), { args: ['--workflow', 'main'], exit: 1 }],
  ['OPERATION_NOT_FOUND', 'error', doc({ steps: '      - { stepId: a, operationId: getZ }' })],
  ['AMBIGUOUS_OPERATION_ID', 'error', doc({ sources: `\n${SOURCE}\n  - { name: api2, url: ./api.openapi.yaml }` })],
  ['SOURCE_NOT_CHECKED', 'warning', doc({ sources: `\n${SOURCE}\n  - { name: gone, url: ./no-such.openapi.yaml }` }), { refused: true }],
  ['UNKNOWN_SOURCE', 'error', doc({ steps: '      - { stepId: a, operationId: $sourceDescriptions.nope.getA }' })],
  ['MISSING_PATH_PARAMETER', 'error', doc({ steps: '      - { stepId: a, operationId: getItem }' })],
  ['UNKNOWN_PARAMETER', 'warning', doc({ steps: '      - { stepId: a, operationId: listItems, parameters: [{ name: qq, in: query, value: x }] }' }), { exit: 0 }],
  ['INVALID_OUTPUT_NAME', 'error', doc({ steps: '      - { stepId: a, operationId: listItems, outputs: { "the total": $statusCode } }' })],
  ['INVALID_PARAMETER_LOCATION', 'error', doc({ steps: '      - { stepId: a, operationId: listItems, parameters: [{ name: q, in: body, value: x }] }' })],
  ['INVALID_REFERENCE', 'error', doc({ steps: "      - { stepId: a, operationId: listItems, parameters: [{ reference: '#/components/parameters/q' }] }" })],
  ['UNKNOWN_COMPONENT', 'error', doc({ steps: '      - { stepId: a, operationId: listItems, parameters: [{ reference: $components.parameters.nope }] }' })],
  [
    'REFERENCE_KIND_MISMATCH',
    'error',
    doc({ steps: '      - { stepId: a, operationId: getA, onFailure: [{ reference: $components.successActions.done }] }', components: '  successActions:\n    done: { name: done, type: end }' }),
  ],
  ['UNKNOWN_ACTION_TYPE', 'error', onFailure('{ name: x, type: jump }')],
  ['ACTION_NOT_SUPPORTED', 'warning', onFailure('{ name: x, type: replay }'), { exit: 0 }],
  ['RETRY_IN_SUCCESS_CHAIN', 'error', doc({ steps: '      - { stepId: a, operationId: getA, onSuccess: [{ name: x, type: retry }] }' })],
  ['MISSING_GOTO_TARGET', 'error', onFailure('{ name: x, type: goto }')],
  ['UNKNOWN_GOTO_STEP', 'error', onFailure('{ name: x, type: goto, stepId: zz }')],
  ['CROSS_WORKFLOW_GOTO', 'warning', doc({ steps: '      - { stepId: a, operationId: getA, onFailure: [{ name: x, type: goto, workflowId: other }] }', more: OTHER }), { args: ['--workflow', 'main'], exit: 0 }],
  ['RETRY_TARGET_UNSUPPORTED', 'warning', onFailure('{ name: x, type: retry, stepId: a }'), { exit: 0 }],
  ['ACTION_TARGET_CONFLICT', 'error', onFailure('{ name: x, type: goto, stepId: a, workflowId: main }')],
  ['INVALID_RETRY_LIMIT', 'error', onFailure('{ name: x, type: retry, retryLimit: -1 }')],
  ['INVALID_RETRY_AFTER', 'error', onFailure('{ name: x, type: retry, retryAfter: -1 }')],
  ['UNKNOWN_CRITERION_TYPE', 'error', doc({ steps: '      - { stepId: a, operationId: getA, successCriteria: [{ condition: x, type: magic }] }' })],
  ['SUCCESS_CRITERION_SKIPPED', 'warning', doc({ steps: "      - { stepId: a, operationId: getA, successCriteria: [{ condition: '$.n', type: jsonpath, context: $response.body }] }" }), { exit: 0 }],
  ['UNSUPPORTED_ACTION_CRITERION', 'warning', onFailure("{ name: x, type: end, criteria: [{ condition: '$.n', type: jsonpath, context: $response.body }] }"), { exit: 0 }],
  ['CRITERION_CONTEXT_UNSUPPORTED', 'warning', onFailure("{ name: x, type: end, criteria: [{ condition: '$statusCode == 500', context: $response.body }] }"), { exit: 0 }],
  ['CONDITION_SYNTAX', 'error', doc({ steps: "      - { stepId: a, operationId: getA, successCriteria: [{ condition: '$statusCode ==' }] }" })],
  ['EXPRESSION_SYNTAX', 'error', doc({ steps: "      - { stepId: a, operationId: getA, outputs: { x: '$inputs.' } }" })],
  ['EXPRESSION_KEPT_LITERAL', 'warning', doc({ steps: "      - { stepId: a, operationId: createItem, requestBody: { contentType: application/json, payload: { filter: '$.items[0]' } } }" }), { exit: 0 }],
  // A payload that contains itself nests without end: the nesting limit refuses it while loading.
  ['PAYLOAD_CYCLE', 'error', doc({ steps: '      - stepId: a\n        operationId: createItem\n        requestBody:\n          payload: &p { self: *p }' }), { unloadable: true }],
  [
    'REPLACEMENTS_UNSUPPORTED',
    'warning',
    doc({ steps: '      - { stepId: a, operationId: createItem, requestBody: { contentType: application/json, payload: { n: 1 }, replacements: [{ target: /n, value: 2 }] } }' }),
    { exit: 1 },
  ],
  ['RESPONSE_NOT_AVAILABLE', 'error', doc({ steps: '      - { stepId: a, operationId: listItems, parameters: [{ name: q, in: query, value: $statusCode }] }' })],
  ['UNKNOWN_STEP', 'error', doc({ main: '    outputs: { x: $steps.zz.outputs.y }\n' })],
  ['UNKNOWN_STEP_OUTPUT', 'error', doc({ main: '    outputs: { x: $steps.a.outputs.nope }\n' })],
  ['EMPTY_SUCCESS_CRITERIA', 'error', doc({ arazzo: '1.1.0', steps: '      - { stepId: a, operationId: getA, successCriteria: [] }' })],
  ['INVALID_TIMEOUT', 'error', doc({ arazzo: '1.1.0', steps: '      - { stepId: a, operationId: getA, timeout: 0 }' })],
  ['QUERYSTRING_CONFLICT', 'error', doc({ arazzo: '1.1.0', steps: "      - { stepId: a, operationId: listItems, parameters: [{ name: q, in: query, value: x }, { name: all, in: querystring, value: 'q=y' }] }" })],
  ['ACTION_PARAMETERS_WITHOUT_WORKFLOW', 'error', doc({ arazzo: '1.1.0', steps: '      - stepId: a\n        operationId: getA\n        onFailure:\n          - { name: stop, type: end, parameters: [{ name: n, value: 1 }] }' })],
  ['ACTION_PARAMETER_IN', 'error', doc({ arazzo: '1.1.0', steps: '      - stepId: a\n        operationId: getA\n        onFailure:\n          - { name: go, type: goto, workflowId: other, parameters: [{ name: n, in: query, value: 1 }] }', more: OTHER })],
  ['STEP_DEPENDS_ON_CYCLE', 'error', doc({ arazzo: '1.1.0', steps: '      - { stepId: a, operationId: getA, dependsOn: [a] }' })],
  ['UNSUPPORTED_PROTOCOL', 'error', doc({ arazzo: '1.1.0', sources: `\n${SOURCE}\n  - { name: events, url: ./kafka.asyncapi.yaml, type: asyncapi }`, steps: '      - { stepId: a, operationId: $sourceDescriptions.events.publish, action: send }' })],
  ['ASYNCAPI_INVALID', 'error', doc({ arazzo: '1.1.0', sources: `\n${SOURCE}\n  - { name: events, url: ./old.asyncapi.yaml, type: asyncapi }` })],
  ['INVALID_ASYNC_STEP', 'error', doc({ arazzo: '1.1.0', steps: '      - { stepId: a, operationId: getA, action: send }' })],
  [
    'FORWARD_STEP_REFERENCE',
    'warning',
    doc({ steps: '      - { stepId: b, operationId: listItems, parameters: [{ name: q, in: query, value: $steps.c.outputs.v }] }\n      - { stepId: c, operationId: getC, outputs: { v: $statusCode } }' }),
  ],
];

/** The codes of the finding-code table in docs/cli.md. */
function documentedCodes(): string[] {
  const text = readFileSync(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8');
  const table = text.slice(text.indexOf('### Finding codes'));
  return [...table.matchAll(/^\| `([A-Z0-9_]+)` \| (error|warning) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

async function validateJson(file: string): Promise<{ code: number; findings: Finding[] }> {
  const result = await h.tool(['arazzo', 'validate', file, '--output', 'json']);
  return { code: result.code, findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings };
}

describe('validate and run agree on every finding code', () => {
  beforeAll(() => {
    // The AsyncAPI sources of the Arazzo 1.1 rows: one on a kafka server, one of AsyncAPI 2.
    h.ws.write('kafka.asyncapi.yaml', 'asyncapi: 3.0.0\ninfo: { title: k, version: "1" }\nservers: { k: { host: "localhost:9092", protocol: kafka } }\nchannels: { c: { address: c } }\noperations: { publish: { action: receive, channel: { $ref: "#/channels/c" } } }\n');
    h.ws.write('old.asyncapi.yaml', 'asyncapi: 2.6.0\ninfo: { title: o, version: "1" }\nchannels: {}\n');
  });

  it('has a row for every code in docs/cli.md, with the severity documented there', () => {
    expect(TABLE.map(([code, severity]) => `${code} ${severity}`).sort()).toEqual(documentedCodes().sort());
  });

  it.each(TABLE)('%s (%s)', async (code, severity, document, run = {}) => {
    const file = h.ws.write(`agree-${code}.arazzo.yaml`, document);
    h.server.setRoutes(ROUTES);
    if (run.unloadable) {
      for (const command of ['validate', 'run']) {
        const result = await h.tool(['arazzo', command, file]);
        expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 10, stdout: '' });
      }
      expect(h.server.hits).toHaveLength(0);
      return;
    }
    const validated = await validateJson(file);
    expect(validated.findings.filter((f) => f.code === code).map((f) => f.severity)[0]).toBe(severity);
    const result = await h.tool(['arazzo', 'run', file, ...(run.args ?? [])]);
    if (severity === 'error') {
      expect(validated.code).toBe(10);
      expect({ code: result.code, stdout: result.stdout, hits: h.server.hits.length }).toEqual({ code: 10, stdout: '', hits: 0 });
      expect(result.stderr).toMatch(new RegExp(` error ${code} `));
      return;
    }
    expect(validated.code).toBe(0);
    if (run.refused) {
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain(code);
      return;
    }
    if (run.exit === undefined) expect(result.code).not.toBe(10);
    else expect(result.code).toBe(run.exit);
    expect(result.stderr).toMatch(new RegExp(` warning ${code} `));
  });
});

describe('documents with several workflows: errors the run cannot reach', () => {
  const BROKEN = '  - workflowId: broken\n    steps:\n      - { stepId: x, operationId: getB, onFailure: [{ name: back, type: goto, stepId: nowhere }] }';

  it('runs the selected workflow and reports an error in an unrelated one as a warning', async () => {
    const file = h.ws.write('reach-unrelated.arazzo.yaml', doc({ more: BROKEN }));
    h.server.setRoutes(ROUTES);
    const result = await h.tool(['arazzo', 'run', file, '--workflow', 'main']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/ warning UNKNOWN_GOTO_STEP .*\(in workflow "broken", which this run does not reach\)/);
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/a']);
    expect((await validateJson(file)).code).toBe(10);
  });

  it.each([
    ['calls it as a nested workflow', { steps: `${STEP_A}\n      - { stepId: n, workflowId: broken }` }],
    ['depends on it', { main: '    dependsOn: [broken]\n' }],
    ['names it in a goto', { steps: '      - { stepId: a, operationId: getA, onFailure: [{ name: g, type: goto, workflowId: broken }] }' }],
  ])('refuses to run a workflow that %s, exit 10 before any request', async (_what, parts) => {
    const file = h.ws.write('reach-named.arazzo.yaml', doc({ ...parts, more: BROKEN }));
    h.server.setRoutes(ROUTES);
    const result = await h.tool(['arazzo', 'run', file, '--workflow', 'main']);
    expect({ code: result.code, hits: h.server.hits.length }).toEqual({ code: 10, hits: 0 });
    expect(result.stderr).toMatch(/ error UNKNOWN_GOTO_STEP /);
  });

  it('still refuses every error when several workflows exist and none is selected', async () => {
    const file = h.ws.write('reach-unselected.arazzo.yaml', doc({ more: BROKEN }));
    const result = await h.tool(['arazzo', 'run', file]);
    expect(result.code).toBe(10);
  });
});
