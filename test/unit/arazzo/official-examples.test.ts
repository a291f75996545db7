/**
 * The official Arazzo examples and schema test fixtures, as a v1 runner sees them. Several official
 * files have real mistakes (an operationId in the wrong case, outputs that are never declared,
 * `$response.body.x` instead of `$response.body#/x`); those are reported, not excused.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ArazzoLoadError } from '../../../src/arazzo/errors.js';
import { EXAMPLES, findingsOf } from './fixtures.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

type Expected = Array<[code: string, severity: 'error' | 'warning', count?: number]>;

const expand = (expected: Expected): string[] => expected.flatMap(([code, severity, count = 1]) => Array<string>(count).fill(`${severity} ${code}`));

const TABLE: Array<[file: string, expected: Expected]> = [
  // Its source (./animals.yaml) is not in the examples: said, not skipped silently.
  ['examples/1.0.0/ExtendedParametersExample.arazzo.yaml', [['SOURCE_NOT_CHECKED', 'warning']]],
  // The step asks for `PAR`; the description declares `Par` (operationIds are case-sensitive).
  ['examples/1.0.0/FAPI-PAR.arazzo.yaml', [['OPERATION_NOT_FOUND', 'error']]],
  ['examples/1.0.0/LoginAndRetrievePets.arazzo.yaml', [['OPERATION_PATH_UNSUPPORTED', 'warning']]],
  [
    'examples/1.0.0/bnpl-arazzo.yaml',
    [
      ['UNSUPPORTED_ACTION_CRITERION', 'warning', 2], // jsonpath criteria on onSuccess actions: fail when dispatched
      ['UNKNOWN_STEP_OUTPUT', 'error', 3], // redirectAuthToken and loanTransactionId are never declared
      ['EXPRESSION_SYNTAX', 'error'], // $steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan lacks ".outputs"
    ],
  ],
  ['examples/1.0.0/oauth.arazzo.yaml', [['NESTED_WORKFLOW_UNSUPPORTED', 'warning'], ['SUCCESS_CRITERION_SKIPPED', 'warning', 2]]],
  [
    'examples/1.0.0/pet-coupons.arazzo.yaml',
    [
      ['UNKNOWN_PARAMETER', 'warning'], // find-pet sends pet_tags; findPetsByTags takes tags
      ['MISSING_PATH_PARAMETER', 'error'], // find-coupons fills pet_id; getPetCoupons needs {petId}
      ['UNKNOWN_PARAMETER', 'warning'], // ... and pet_id is not one of its parameters (did you mean "petId"?)
      ['NESTED_WORKFLOW_UNSUPPORTED', 'warning', 2],
    ],
  ],
  [
    'v1.0.1-rel/tests/v1.0/pass/bnpl-example.yaml',
    [
      ['UNSUPPORTED_ACTION_CRITERION', 'warning', 2],
      ['EXPRESSION_SYNTAX', 'error', 2], // $response.body.redirectAuthToken, $response.body.links.self
      ['UNKNOWN_STEP_OUTPUT', 'error'],
      ['EXPRESSION_SYNTAX', 'error'], // $response.headers.Location
      ['UNKNOWN_STEP_OUTPUT', 'error', 2],
    ],
  ],
  // The schema test fixtures come without their OpenAPI descriptions.
  ['v1.0.1-rel/tests/v1.0/pass/oauth-example.yaml', [['SOURCE_NOT_CHECKED', 'warning'], ['NESTED_WORKFLOW_UNSUPPORTED', 'warning'], ['SUCCESS_CRITERION_SKIPPED', 'warning', 4]]],
  ['v1.0.1-rel/tests/v1.0/pass/pet-coupons-example.yaml', [['SOURCE_NOT_CHECKED', 'warning'], ['NESTED_WORKFLOW_UNSUPPORTED', 'warning', 2]]],
  ['v1.0.1-rel/tests/v1.0/fail/invalid-arazzo-version.yaml', [['UNSUPPORTED_VERSION', 'error'], ['STEP_WITHOUT_OPERATION', 'error']]],
];

describe('official Arazzo examples', () => {
  it.each(TABLE)('%s gives the expected findings', async (file, expected) => {
    const findings = await findingsOf(file, EXAMPLES);
    expect(findings.map((f) => `${f.severity} ${f.code}`)).toEqual(expand(expected));
  });

  it('rejects the not-an-object fail fixture with exit 10', async () => {
    const error = await findingsOf('v1.0.1-rel/tests/v1.0/fail/not-an-object.yaml', EXAMPLES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArazzoLoadError);
    expect((error as ArazzoLoadError).code).toBe('NOT_AN_OBJECT');
    expect(exitCodeFor((error as ArazzoLoadError).kind)).toBe(10);
  });

  it('gives an error (or a load error with exit 10) for every fail fixture', async () => {
    const dir = 'v1.0.1-rel/tests/v1.0/fail';
    for (const name of readdirSync(join(EXAMPLES, dir))) {
      const outcome = await findingsOf(`${dir}/${name}`, EXAMPLES).then(
        (findings) => findings.some((f) => f.severity === 'error'),
        (error: unknown) => error instanceof ArazzoLoadError && exitCodeFor(error.kind) === 10,
      );
      expect([name, outcome]).toEqual([name, true]);
    }
  });

  it('covers every example and schema test fixture in the table', () => {
    const listed = new Set([...TABLE.map(([file]) => file), 'v1.0.1-rel/tests/v1.0/fail/not-an-object.yaml']);
    const onDisk = [
      ...readdirSync(join(EXAMPLES, 'examples/1.0.0'))
        .filter((name) => name.endsWith('.arazzo.yaml') || name === 'bnpl-arazzo.yaml')
        .map((name) => `examples/1.0.0/${name}`),
      ...['pass', 'fail'].flatMap((kind) => readdirSync(join(EXAMPLES, 'v1.0.1-rel/tests/v1.0', kind)).map((name) => `v1.0.1-rel/tests/v1.0/${kind}/${name}`)),
    ];
    expect(onDisk.filter((file) => !listed.has(file))).toEqual([]);
  });
});
