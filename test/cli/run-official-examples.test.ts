/**
 * The official Arazzo 1.0.0 examples, run in-process against a local server that answers
 * their operations. Where an example reaches a construct v1 does not run (nested workflows,
 * jsonpath action criteria, operationPath) or has a mistake of its own, the test asserts the
 * documented behaviour: the steps before it really run, then the run fails naming it.
 */
import { describe, expect, it } from '@jest/globals';
import { copyOfficial, copyOfficialDescription, writeStandIn } from '../e2e/helpers/official.js';
import { expectNoRun, recordOf, trail } from '../e2e/helpers/record.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();

function failureLine(stderr: string): string {
  return stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';
}

describe('official example pet-coupons.arazzo.yaml', () => {
  const routes = {
    'GET /pet/findByTags': { body: [{ id: 7, name: 'Rex' }] },
    'GET /pet/findByStatus': { body: [{ id: 8, name: 'Fido', status: 'available' }] },
    'GET /pet/{petId}/coupons': { body: { couponCode: 'SAVE10' } },
    'POST /store/order': (hit: { body: string }) => ({ body: { id: 99, ...(JSON.parse(hit.body) as object) } }),
  };
  const prepare = () => {
    h.server.setRoutes(routes);
    copyOfficialDescription(h.ws, 'pet-coupons.openapi.yaml', h.server.url);
    copyOfficial(h.ws, 'pet-coupons.arazzo.yaml');
  };

  it('runs the place-order workflow: the order is posted with the inputs and its id is the output', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'pet-coupons.arazzo.yaml', '--workflow', 'place-order', '--input', 'pet_id=7', '--input', 'quantity=1', '--input', 'coupon_code=SAVE10']);
    expect(result.code).toBe(0);
    expect(recordOf(result)).toEqual({ status: 'succeeded',
      workflowId: 'place-order',
      outputs: { workflow_order_id: 99 },
      steps: [{ stepId: 'place-order', status: 200, dryRun: false, outputs: { step_order_id: 99 } }],
    });
    expect(h.server.hits).toHaveLength(1);
    // Inputs are opaque strings; the literal leaves of the payload keep their types.
    expect(JSON.parse(h.server.hits[0]!.body)).toEqual({ petId: '7', quantity: '1', couponCode: 'SAVE10', status: 'placed', complete: false });
  });

  it('runs buy-available-pet up to its nested place-order step, which fails at runtime', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'pet-coupons.arazzo.yaml', '--workflow', 'buy-available-pet']);
    expect(result.code).toBe(1);
    const record = recordOf(result);
    expect(record.steps).toEqual([{ stepId: 'find-pet', status: 200, dryRun: false, outputs: { my_pet_id: 8 } }]);
    expect(h.server.hits.map((hit) => [hit.path, hit.query])).toEqual([['/pet/findByStatus', { status: 'available', page: '1', pageSize: '10' }]]);
    expect(failureLine(result.stderr)).toMatch(/workflow "buy-available-pet" failed at step "place-order": .*nested workflow/);
  });

  it('refuses apply-coupon before any request: find-coupons fills pet_id, and getPetCoupons needs {petId}', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'pet-coupons.arazzo.yaml', '--workflow', 'apply-coupon', '--input', 'my_pet_tags=puppy']);
    expectNoRun(result, 10);
    expect(result.stderr).toMatch(/error MISSING_PATH_PARAMETER .*needs path parameter "petId"/);
    expect(result.stderr).toMatch(/warning UNKNOWN_PARAMETER parameter "pet_id" \(in: path\) .*\(did you mean "petId"\?\)/);
    expect(h.server.hits).toHaveLength(0);
  });

  it('warns about nested workflow steps only in the workflows a run reaches; validate names both', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'pet-coupons.arazzo.yaml', '--workflow', 'place-order', '--input', 'pet_id=1', '--input', 'quantity=1', '--input', 'coupon_code=X']);
    // Both nested steps are in apply-coupon and buy-available-pet, which a run of place-order does not reach.
    expect(result.stderr).not.toContain('NESTED_WORKFLOW_UNSUPPORTED');
    const validated = await h.tool(['arazzo', 'validate', 'pet-coupons.arazzo.yaml']);
    expect(validated.stdout.match(/warning NESTED_WORKFLOW_UNSUPPORTED/g)).toHaveLength(2);
  });
});

describe('official example oauth.arazzo.yaml', () => {
  const prepare = () => {
    h.server.setRoutes({
      'GET /authorize': { body: { code: 'code-1', access_token: 'pre' } },
      'POST /oauth/token': { body: { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 } },
    });
    copyOfficialDescription(h.ws, 'oauth.openapi.yaml', h.server.url);
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
  };
  const inputs = ['--input', 'client_id=cid', '--input', 'client_secret=shh', '--input', 'redirect_uri=https://app.example/cb'];

  it('runs authorization-code-flow: authorize, then exchange the code for tokens as a form post', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'oauth.arazzo.yaml', '--workflow', 'authorization-code-flow', ...inputs]);
    expect(result.code).toBe(0);
    expect(recordOf(result)).toEqual({ status: 'succeeded',
      workflowId: 'authorization-code-flow',
      outputs: { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 },
      steps: [
        { stepId: 'browser-authorize', status: 200, dryRun: false, outputs: { code: 'code-1' } },
        { stepId: 'get-access-token', status: 200, dryRun: false, outputs: { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 } },
      ],
    });
    const [authorize, token] = h.server.hits;
    expect(authorize!.query).toEqual({ client_id: 'cid', redirect_uri: 'https://app.example/cb', response_type: 'code', scope: 'read', state: '12345' });
    expect(token!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(token!.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'code-1',
      redirect_uri: 'https://app.example/cb',
      client_id: 'cid',
      client_secret: 'shh',
    });
  });

  it('runs client-credentials-flow, skipping its jsonpath success criterion with a warning', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'oauth.arazzo.yaml', '--workflow', 'client-credentials-flow', ...inputs]);
    expect(result.code).toBe(0);
    expect(recordOf(result)).toMatchObject({ outputs: { access_token: 'at-1' }, steps: [{ stepId: 'get-client-creds-token', status: 200 }] });
    expect(result.stderr).toMatch(/warning: step "get-client-creds-token": jsonpath criterion .* skipped/);
    expect(Object.fromEntries(new URLSearchParams(h.server.hits[0]!.body))).toEqual({ client_id: 'cid', client_secret: 'shh', grant_type: 'client_credentials' });
  });

  it('fails refresh-token-flow at its first step, a nested workflow, before any request', async () => {
    prepare();
    const result = await h.tool(['arazzo', 'run', 'oauth.arazzo.yaml', '--workflow', 'refresh-token-flow', ...inputs]);
    expect(result.code).toBe(1);
    expect(recordOf(result)).toEqual({ workflowId: 'refresh-token-flow', status: 'failed', failure: { stepId: 'do-the-auth-flow', code: 'UNSUPPORTED', message: expect.stringContaining('nested workflow steps') }, outputs: {}, steps: [] });
    expect(failureLine(result.stderr)).toMatch(/failed at step "do-the-auth-flow": .*nested workflow.*"authorization-code-flow"/);
    expect(h.server.hits).toHaveLength(0);
  });
});

describe('official example bnpl-arazzo.yaml', () => {
  const LOCAL_SOURCE: [string, string] = ['https://raw.githubusercontent.com/OAI/Arazzo-Specification/main/examples/1.0.0/bnpl-openapi.yaml', './bnpl-openapi.yaml'];
  /** The example's own mistakes, fixed the way its authors evidently meant (the unit tests list them). */
  const FIXES: Array<[string, string]> = [
    ['$steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan', '$steps.retrieveFinalizedPaymentPlan.outputs.finalizedPaymentPlan'],
    ['$steps.authenticateCustomerAndAuthorizeLoan.outputs.redirectAuthToken', '$steps.initiateBnplTransaction.outputs.redirectAuthToken'],
    ['      loanTransactionResourceUrl: $response.body#/links/self', '      loanTransactionResourceUrl: $response.body#/links/self\n      loanTransactionId: $response.body#/loanTransactionId'],
  ];
  const prepare = (products: Record<string, unknown>, edits: Array<[string, string]>) => {
    h.server.setRoutes({ 'POST /bnpl/v1/products': { body: products }, 'GET /bnpl/v1/terms-and-conditions': { body: ['Be nice'] } });
    copyOfficialDescription(h.ws, 'bnpl-openapi.yaml', `${h.server.url}/bnpl/v1`);
    copyOfficial(h.ws, 'bnpl-arazzo.yaml', [LOCAL_SOURCE, ...edits]);
  };
  const inputs = ['--input', 'customer=cust-1', '--input', 'products=prod-1'];

  it('refuses the example as published with exit 10 before any request: it references outputs that do not exist', async () => {
    prepare({ existingCustomerNotEligible: false }, []);
    const result = await h.tool(['arazzo', 'run', 'bnpl-arazzo.yaml', ...inputs]);
    expectNoRun(result, 10);
    expect(result.stderr).toContain('UNKNOWN_STEP_OUTPUT');
    expect(result.stderr).toContain('EXPRESSION_SYNTAX');
    expect(h.server.hits).toHaveLength(0);
  });

  it('ends the corrected example after the eligibility check when its first success action matches', async () => {
    prepare({ existingCustomerNotEligible: false, productCodes: ['p1'], eligibilityCheckRequired: true, totalAmount: { currency: 'EUR', amount: 10 } }, FIXES);
    const result = await h.tool(['arazzo', 'run', 'bnpl-arazzo.yaml', ...inputs]);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(record.workflowId).toBe('ApplyForLoanAtCheckout');
    expect(record.outputs).toEqual({ finalizedPaymentPlan: null });
    expect(record.steps).toEqual([
      {
        stepId: 'checkLoanCanBeProvided',
        status: 200,
        dryRun: false,
        outputs: { eligibilityCheckRequired: true, eligibleProducts: null, totalLoanAmount: { currency: 'EUR', amount: 10 } },
      },
    ]);
    // The payload is a string template: each {$expression} is interpolated.
    expect(h.server.hits.map((hit) => hit.path)).toEqual(['/bnpl/v1/products']);
    expect(JSON.parse(h.server.hits[0]!.body)).toEqual({ customer: 'cust-1', products: 'prod-1' });
  });

  it('fails the corrected example when its jsonpath success action is dispatched', async () => {
    prepare({ existingCustomerNotEligible: true, productCodes: ['p1'] }, FIXES);
    const result = await h.tool(['arazzo', 'run', 'bnpl-arazzo.yaml', ...inputs]);
    expect(result.code).toBe(1);
    expect(trail(recordOf(result))).toEqual(['checkLoanCanBeProvided:200']);
    expect(failureLine(result.stderr)).toMatch(/failed at step "checkLoanCanBeProvided": .*"qualifyingProductsFound".*jsonpath/);
    expect(h.server.hits).toHaveLength(1);
  });
});

describe('official example LoginAndRetrievePets.arazzo.yaml', () => {
  it('logs in against a local stand-in of the petstore, then fails at the operationPath step', async () => {
    h.server.setRoutes({
      'GET /user/login': { body: 'session-123', headers: { 'X-Rate-Limit': '5000', 'X-Expires-After': '2030-01-01T00:00:00Z' } },
      'GET /pet/findByStatus': { body: [] },
    });
    writeStandIn(h.ws, 'petstore-login.openapi.yaml', h.server.url);
    copyOfficial(h.ws, 'LoginAndRetrievePets.arazzo.yaml', [
      ['https://raw.githubusercontent.com/swagger-api/swagger-petstore/master/src/main/resources/openapi.yaml', './petstore-login.openapi.yaml'],
    ]);
    const result = await h.tool(['arazzo', 'run', 'LoginAndRetrievePets.arazzo.yaml', '--input', 'username=ann', '--input', 'password=pw']);
    expect(result.code).toBe(1);
    expect(recordOf(result).steps).toEqual([
      {
        stepId: 'loginStep',
        status: 200,
        dryRun: false,
        outputs: { tokenExpires: '2030-01-01T00:00:00Z', rateLimit: '5000', sessionToken: 'session-123' },
      },
    ]);
    expect(h.server.hits.map((hit) => [hit.path, hit.query])).toEqual([['/user/login', { username: 'ann', password: 'pw' }]]);
    expect(failureLine(result.stderr)).toMatch(/failed at step "getPetStep": .*operationPath/);
  });
});

describe('official example ExtendedParametersExample.arazzo.yaml', () => {
  it('sends workflow-level cookie and header parameters with every step, plus the step cookie', async () => {
    h.server.setRoutes({ 'POST /animals': { status: 201, body: { id: 1 } }, 'GET /animals/random': { body: { name: 'okapi' } } });
    // The example names ./animals.yaml, which the official set does not ship: a stand-in takes its place.
    writeStandIn(h.ws, 'animals.openapi.yaml', h.server.url, 'animals.yaml');
    copyOfficial(h.ws, 'ExtendedParametersExample.arazzo.yaml');
    const result = await h.tool(['arazzo', 'run', 'ExtendedParametersExample.arazzo.yaml']);
    expect(result.code).toBe(0);
    expect(trail(recordOf(result))).toEqual(['post-step:201', 'get-step:200']);
    const [post, get] = h.server.hits;
    const cookies = (header: string | undefined) => Object.fromEntries((header ?? '').split(/;\s*/).map((c) => c.split('=')));
    expect(cookies(post!.headers.cookie)).toEqual({ workflowLevelParamOne: 'someValue', authentication: 'SUPER_SECRET' });
    expect(post!.headers.workflowlevelparamtwo).toBe('someValue');
    expect(cookies(get!.headers.cookie)).toEqual({ workflowLevelParamOne: 'someValue' });
    expect(get!.headers.workflowlevelparamtwo).toBe('someValue');
  });

  it('shows the cookie header as *** in dry-run and sends nothing', async () => {
    h.server.setRoutes({});
    writeStandIn(h.ws, 'animals.openapi.yaml', h.server.url, 'animals.yaml');
    copyOfficial(h.ws, 'ExtendedParametersExample.arazzo.yaml');
    const result = await h.tool(['arazzo', 'run', 'ExtendedParametersExample.arazzo.yaml', '--dry-run']);
    expect(result.code).toBe(0);
    expect(recordOf(result).steps.map((s) => [s.stepId, s.dryRun, s.status])).toEqual([
      ['post-step', true, 0],
      ['get-step', true, 0],
    ]);
    const lines = result.stderr.split('\n');
    const at = lines.findIndex((line) => line.endsWith(`post-step POST ${h.server.url}/animals`));
    const headers = JSON.parse(lines[at + 1]!) as Record<string, string>;
    const cookie = Object.entries(headers).find(([name]) => name.toLowerCase() === 'cookie');
    expect(cookie?.[1]).toBe('***');
    expect(result.stderr).not.toContain('SUPER_SECRET');
    expect(h.server.hits).toHaveLength(0);
  });
});

describe('official example FAPI-PAR.arazzo.yaml', () => {
  it('refuses the example with exit 10 before any request: it calls operationId PAR, which the description spells Par', async () => {
    h.server.setRoutes({});
    copyOfficialDescription(h.ws, 'FAPI-PAR.openapi.yaml', h.server.url);
    copyOfficial(h.ws, 'FAPI-PAR.arazzo.yaml');
    const result = await h.tool(['arazzo', 'run', 'FAPI-PAR.arazzo.yaml']);
    expectNoRun(result, 10);
    expect(result.stderr).toContain('PAR');
    expect(h.server.hits).toHaveLength(0);
  });
});
