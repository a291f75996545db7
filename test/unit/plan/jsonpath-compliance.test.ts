/**
 * The RFC 9535 compliance suite (test/fixtures/jsonpath-compliance, see its PROVENANCE.md) through
 * the jsonpath criterion as the v2 runner prepares and evaluates it: an invalid selector does not
 * prepare (a validation error), and a valid one selects exactly the expected nodes, so the
 * criterion holds exactly when the expected nodelist is not empty.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { Criterion as CriterionObject } from '../../../src/arazzo/model.js';
import { loadCriterionLibraries, type CriterionLibraries } from '../../../src/expressions/criterion-libraries.js';
import { jsonPathValues, type CompiledJsonPath } from '../../../src/expressions/jsonpath-criterion.js';
import { createRegexWorker } from '../../../src/execute/regex-worker.js';
import { evaluateCriteria, prepareCriterion, type CriteriaOptions, type JsonPathCriterion } from '../../../src/plan/evaluate-criteria.js';
import { V2_PROFILE } from '../../../src/arazzo/runner-profile.js';

interface Case {
  name: string;
  selector: string;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  invalid_selector?: boolean;
}

const suite = JSON.parse(readFileSync(new URL('../../fixtures/jsonpath-compliance/cts.json', import.meta.url), 'utf8')) as { tests: Case[] };
let options: CriteriaOptions;
// match() and search() run on a regex worker, as in a run.
const regex = createRegexWorker();

beforeAll(async () => {
  const libraries: CriterionLibraries = await loadCriterionLibraries(['jsonpath'], { regex });
  options = { profile: V2_PROFILE, libraries, regex };
});

afterAll(() => regex.stop());

const criterion = (selector: string): CriterionObject => ({ pointer: '/workflows/0/steps/0/successCriteria/0', extra: {}, type: 'jsonpath', condition: selector, context: '$response.body' }) as CriterionObject;

describe('the jsonpath criterion on the RFC 9535 compliance suite', () => {
  it('has all 703 cases', () => {
    expect(suite.tests).toHaveLength(703);
  });

  it.each(suite.tests.map((test, i) => [`${i} ${test.name}`, test] as const))('%s', (_name, test) => {
    if (test.invalid_selector) {
      expect(() => prepareCriterion(criterion(test.selector), options)).toThrow();
      return;
    }
    const prepared = prepareCriterion(criterion(test.selector), options) as JsonPathCriterion;
    const values = jsonPathValues(prepared.query as CompiledJsonPath, test.document);
    const expected = test.results ?? [test.result!];
    expect(expected).toContainEqual(values);
    const ctx = { inputs: {}, steps: {}, response: { statusCode: 200, headers: {}, body: test.document } };
    expect(evaluateCriteria([prepared], ctx) === undefined).toBe(expected[0]!.length > 0);
  });
});
