import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArazzoLoadError } from '../../../src/arazzo/errors.js';
import { isReference, type Action, type Parameter } from '../../../src/arazzo/model.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { FIXTURES } from './fixtures.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

const parseFixture = (name: string) => parseDocumentText(readFileSync(join(FIXTURES, name), 'utf8'), name, join(FIXTURES, name));

function loadError(run: () => unknown): ArazzoLoadError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArazzoLoadError) return error;
    throw error;
  }
  throw new Error('expected an ArazzoLoadError');
}

describe('parseDocumentText: the model', () => {
  const { model } = parseFixture('model.arazzo.yaml');
  const [full, other] = model.workflows;
  const [create, read] = full?.steps ?? [];

  it('reads the document fields and keeps unknown and x- fields in extra', () => {
    expect(model.arazzo).toBe('1.0.1');
    expect(model.info).toEqual({ pointer: '/info', extra: { 'x-owner': 'team-a' }, title: 'Every field of the model', version: '2.0.0' });
    expect(model.workflows.map((w) => w.workflowId)).toEqual(['full', 'other']);
  });

  it('maps x-tool-api on a source to api and leaves other extensions in extra', () => {
    expect(model.sourceDescriptions).toEqual([
      { pointer: '/sourceDescriptions/0', extra: { 'x-note': 'kept' }, name: 'pets', url: './pets.openapi.yaml', type: 'openapi', api: 'petstore' },
    ]);
  });

  it('gives every object the JSON pointer it was read from', () => {
    expect(create?.pointer).toBe('/workflows/0/steps/0');
    expect(create?.requestBody?.pointer).toBe('/workflows/0/steps/0/requestBody');
    expect(create?.successCriteria[1]?.pointer).toBe('/workflows/0/steps/0/successCriteria/1');
    expect(create?.onFailure?.[0]?.pointer).toBe('/workflows/0/steps/0/onFailure/0');
    expect(model.components?.failureActions.stop?.pointer).toBe('/components/failureActions/stop');
  });

  it('keeps an absent action chain undefined and an empty one as []', () => {
    expect(create?.onSuccess).toEqual([]);
    expect(read?.onSuccess).toBeUndefined();
    expect(read?.onFailure).toBeUndefined();
    expect(full?.successActions).toHaveLength(1);
    expect(full?.failureActions).toBeUndefined();
    expect(other?.failureActions).toEqual([]);
    expect(other?.successActions).toBeUndefined();
  });

  it('reads inline actions with their numbers and criteria, and references as references', () => {
    const [again, stop] = create?.onFailure ?? [];
    expect(again && !isReference(again)).toBe(true);
    const action = again as Action;
    expect([action.name, action.type, action.retryAfter, action.retryLimit]).toEqual(['again', 'retry', 1.5, 2]);
    expect(action.criteria.map((c) => [c.condition, c.type])).toEqual([['$statusCode == 503', 'simple']]);
    expect(stop).toEqual({ pointer: '/workflows/0/steps/0/onFailure/1', extra: {}, reference: '$components.failureActions.stop' });
  });

  it('defaults a criterion type to simple and flattens an expression type object to its type', () => {
    expect(create?.successCriteria.map((c) => c.type)).toEqual(['simple', 'jsonpath']);
    expect(create?.successCriteria[1]?.context).toBe('$response.body');
  });

  it('reads parameters, parameter references with a value override, bodies and replacements', () => {
    expect(full?.parameters[0]).toEqual({ pointer: '/workflows/0/parameters/0', extra: {}, name: 'X-Trace', in: 'header', value: 'abc' });
    expect(full?.parameters[1]).toEqual({ pointer: '/workflows/0/parameters/1', extra: {}, reference: '$components.parameters.limit', value: 3 });
    expect(create?.requestBody).toEqual({
      pointer: '/workflows/0/steps/0/requestBody',
      extra: {},
      contentType: 'application/json',
      payload: { name: '$inputs.name' },
      replacements: [{ pointer: '/workflows/0/steps/0/requestBody/replacements/0', target: '/name', value: '$inputs.name' }],
    });
  });

  it('reads outputs, dependsOn, inputs and step extensions', () => {
    expect(create?.outputs).toEqual({ id: '$response.body#/id' });
    expect(create?.extra).toEqual({ 'x-step-extension': true });
    expect(full?.dependsOn).toEqual(['other']);
    expect(full?.inputs).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
  });

  it('reads components', () => {
    const components = model.components;
    expect(components?.inputs).toEqual({ pet: { type: 'object' } });
    expect((components?.parameters.limit as Parameter).in).toBe('query');
    expect(components?.successActions.done?.type).toBe('end');
    expect(components?.failureActions.stop?.stepId).toBe('read');
  });
});

describe('parseDocumentText: positions', () => {
  const doc = parseFixture('model.arazzo.yaml');

  it('locates a scalar field at its value', () => {
    expect(doc.locate('/workflows/0/steps/0/operationId')).toEqual({ line: 32, col: 22 });
  });

  it('locates a block field at its key and a list item at its first line', () => {
    expect(doc.locate('/workflows/0/steps')).toEqual({ line: 29, col: 5 });
    expect(doc.locate('/workflows/0/steps/1')).toEqual({ line: 59, col: 9 });
  });

  it('falls back to the nearest ancestor for a pointer with no node', () => {
    expect(doc.locate('/workflows/0/steps/1/onFailure/0')).toEqual({ line: 59, col: 9 });
    expect(doc.locate('not a pointer')).toEqual({ line: 1, col: 1 });
  });
});

describe('parseDocumentText: documents of the wrong shape', () => {
  it('models fields of the wrong type as empty or absent instead of crashing', () => {
    const { model } = parseFixture('wrong-types.arazzo.yaml');
    const [numbers, strings] = model.workflows;
    expect(numbers?.steps).toEqual([]);
    expect(strings?.outputs).toEqual({});
    expect(strings?.steps).toHaveLength(1);
    expect(strings?.steps[0]?.onSuccess).toBeUndefined();
    expect(strings?.steps[0]?.outputs).toEqual({});
  });

  it('reads a JSON document', () => {
    const doc = parseDocumentText('{"arazzo": "1.0.1", "workflows": [{"workflowId": "w", "steps": []}]}', 'flow.json', '/tmp/flow.json');
    expect(doc.model.workflows[0]?.workflowId).toBe('w');
    expect(doc.locate('/workflows/0/workflowId')).toEqual({ line: 1, col: 50 });
  });
});

describe('parseDocumentText: errors', () => {
  it('reports a YAML syntax error with file:line:col and a caret excerpt (exit 10)', () => {
    const error = loadError(() => parseDocumentText('arazzo: 1.0.1\ninfo: {title: x\nworkflows: []\n', 'bad.yaml', '/tmp/bad.yaml'));
    expect(error.code).toBe('YAML_SYNTAX');
    expect(exitCodeFor(error.kind)).toBe(10);
    expect(error.position).toEqual({ line: 3, col: 1 });
    expect(error.message).toMatch(/^bad\.yaml:3:1: invalid YAML: /);
    expect(error.hint).toBe('3 | workflows: []\n    | ^');
  });

  it('reports a duplicate key with its name and position', () => {
    const error = loadError(() => parseFixture('duplicate-key.arazzo.yaml'));
    expect(error.code).toBe('YAML_SYNTAX');
    expect(error.message).toBe('duplicate-key.arazzo.yaml:4:3: invalid YAML: key "title" appears twice in the same mapping');
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const error = loadError(() => parseFixture('alias-bomb.arazzo.yaml'));
    expect(error.code).toBe('ALIAS_LIMIT');
    expect(exitCodeFor(error.kind)).toBe(10);
    expect(error.message).toContain('more than 100 alias uses');
  });

  it('honours a lower alias limit', () => {
    const text = 'a: &a [1]\nb: [*a, *a, *a]\n';
    expect(parseDocumentText(text, 'x', '/x').raw).toEqual({ a: [1], b: [[1], [1], [1]] });
    expect(loadError(() => parseDocumentText(text, 'x', '/x', { maxAliasCount: 2 })).code).toBe('ALIAS_LIMIT');
  });

  it('reports an alias without an anchor as a syntax error', () => {
    const error = loadError(() => parseDocumentText('arazzo: 1.0.1\ninfo: *missing\n', 'x.yaml', '/x.yaml'));
    expect(error.code).toBe('YAML_SYNTAX');
    expect(error.message).toBe('x.yaml:2:7: invalid YAML: alias *missing has no anchor &missing before it');
  });

  it.each([
    ['list.arazzo.yaml', 'a list'],
    ['scalar.arazzo.yaml', 'a single value'],
    ['empty.arazzo.yaml', 'empty'],
  ])('refuses %s, which is not a mapping (exit 10)', (name, what) => {
    const error = loadError(() => parseFixture(name));
    expect(error.code).toBe('NOT_AN_OBJECT');
    expect(exitCodeFor(error.kind)).toBe(10);
    expect(error.message).toContain(`the document is ${what}`);
  });
});

describe('parseDocumentText: scalars and keys', () => {
  it('resolves plain scalars with the YAML 1.2 core schema, not YAML 1.1', () => {
    const text = 'arazzo: 1.0.1\nx-a: [yes, no, on, off, y, True, FALSE, tRUE, ~, null, NULL, nULL, 0o17, 0x1F, -0x1F, 1_000, 0b11, +12, -0, .5, 1., 1e3, .inf, -.Inf, .NaN, 012, 2001-12-14]\n';
    const values = (parseDocumentText(text, 'a.yaml', '/a.yaml').raw as Record<string, unknown>)['x-a'] as unknown[];
    expect(values).toEqual(['yes', 'no', 'on', 'off', 'y', true, false, 'tRUE', null, null, null, 'nULL', 15, 31, '-0x1F', '1_000', '0b11', 12, -0, 0.5, 1, 1000, Infinity, -Infinity, NaN, 12, '2001-12-14']);
    expect(Object.is(values[18], -0)).toBe(true);
  });

  it('keeps __proto__ and toString keys as own data properties, in YAML and JSON', () => {
    for (const text of ['arazzo: 1.0.1\nx-k:\n  __proto__: {polluted: 1}\n  toString: 2\n', '{"arazzo": "1.0.1", "x-k": {"__proto__": {"polluted": 1}, "toString": 2}}']) {
      const value = (parseDocumentText(text, 'a.yaml', '/a.yaml').raw as Record<string, unknown>)['x-k'] as object;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(['__proto__', 'toString']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('reports a duplicate JSON key as YAML does, with its name and position', () => {
    const error = loadError(() => parseDocumentText('{"arazzo": "1.0.1",\n "arazzo": "1.0.2"}', 'dup.json', '/dup.json'));
    expect(error.message).toBe('dup.json:2:2: invalid YAML: key "arazzo" appears twice in the same mapping');
  });
});

describe('parseDocumentText: JSON', () => {
  it('reads a JSON document with a byte order mark', () => {
    const doc = parseDocumentText('\uFEFF{"arazzo": "1.0.1", "info": {"title": "T", "version": "1"}}', 'bom.json', '/bom.json');
    expect(doc.model.arazzo).toBe('1.0.1');
    expect(doc.model.info?.title).toBe('T');
  });
});
