/**
 * The official Arazzo 1.0.0 examples under --tool-runner v2, end to end against a local server
 * that answers what each description promises. Every workflow of every example runs to its end:
 * the tests pin the requests sent (method, path, query and body, in order) and the run record
 * (each step's workflowId, nested `steps`, outputs).
 *
 * Where an example is itself wrong, `arazzo validate --tool-runner v2` on the original names the
 * defect, and the run uses the corrected copy in test/fixtures/official-v2/ (its README.md lists
 * each correction and why). Defects that validate cannot see are pinned by running the original
 * text (with the other corrections applied) and asserting the runtime failure.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { copyOfficial, copyOfficialDescription, writeStandIn } from '../e2e/helpers/official.js';
import { INTERNAL_ERROR, NODE_WARNING, STACK_FRAME } from '../e2e/helpers/record.js';
import type { Routes } from '../e2e/helpers/scripted-server.js';
import { useRunHarness } from './run-harness.js';
import type { WorkspaceResult } from './run-in-workspace.js';

const h = useRunHarness();
const CORRECTED = fileURLToPath(new URL('../fixtures/official-v2/', import.meta.url));
const V2 = ['--tool-runner', 'v2'];

/** The remote sources two examples name, pointed at the local copies (a move, not a correction). */
const BNPL_SOURCE: [string, string] = ['https://raw.githubusercontent.com/OAI/Arazzo-Specification/main/examples/1.0.0/bnpl-openapi.yaml', './bnpl-openapi.yaml'];
const PETSTORE_SOURCE: [string, string] = ['https://raw.githubusercontent.com/swagger-api/swagger-petstore/master/src/main/resources/openapi.yaml', './petstore-login.openapi.yaml'];

interface V2Step {
  stepId: string;
  status: number;
  dryRun: boolean;
  workflowId: string;
  outputs: Record<string, unknown>;
  failedVia?: string;
  steps?: V2Step[];
}
interface V2Record {
  workflowId: string;
  outputs: Record<string, unknown>;
  steps: V2Step[];
}

function recordOf(result: WorkspaceResult): V2Record {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toMatch(INTERNAL_ERROR);
  expect(result.stderr).not.toMatch(NODE_WARNING);
  return JSON.parse(result.stdout) as V2Record;
}

/** `workflowId.stepId:status` of each step, nested calls in brackets. */
function trail(steps: V2Step[]): string[] {
  return steps.map((s) => `${s.workflowId}.${s.stepId}:${s.status}${s.steps ? `[${trail(s.steps).join(' ')}]` : ''}`);
}

const sent = () => h.server.hits.map((hit) => `${hit.method} ${hit.path}`);
const jsonBody = (i: number): unknown => JSON.parse(h.server.hits[i]!.body);
const formBody = (i: number) => Object.fromEntries(new URLSearchParams(h.server.hits[i]!.body));
const errorLine = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('error:')) ?? '';

/** Writes the corrected copy from test/fixtures/official-v2/, after `edits` (exact replacements that must each match). */
function corrected(name: string, edits: Array<[string, string]> = []): string {
  let text = readFileSync(CORRECTED + name, 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${name} does not contain ${JSON.stringify(from)}`);
    text = text.split(from).join(to);
  }
  return h.ws.write(name, text);
}

function run(file: string, args: string[], routes: Routes): Promise<WorkspaceResult> {
  h.server.setRoutes(routes);
  return h.tool(['arazzo', 'run', file, ...V2, ...args]);
}

function validate(file: string): Promise<WorkspaceResult> {
  h.server.setRoutes({});
  return h.tool(['arazzo', 'validate', file, ...V2]);
}

beforeAll(() => {
  copyOfficialDescription(h.ws, 'pet-coupons.openapi.yaml', h.server.url);
  copyOfficialDescription(h.ws, 'oauth.openapi.yaml', h.server.url);
  copyOfficialDescription(h.ws, 'FAPI-PAR.openapi.yaml', h.server.url);
  copyOfficialDescription(h.ws, 'bnpl-openapi.yaml', `${h.server.url}/bnpl/v1`);
  writeStandIn(h.ws, 'petstore-login.openapi.yaml', h.server.url);
  // ExtendedParametersExample names ./animals.yaml, which the official set does not ship.
  writeStandIn(h.ws, 'animals.openapi.yaml', h.server.url, 'animals.yaml');
});

describe('pet-coupons.arazzo.yaml', () => {
  const ROUTES: Routes = {
    'GET /pet/findByTags': { body: [{ id: 7, name: 'Rex', tags: [{ name: 'puppy' }] }] },
    'GET /pet/findByStatus': { body: [{ id: 8, name: 'Fido', status: 'available' }] },
    'GET /pet/{petId}/coupons': { body: { couponCode: 'SAVE10' } },
    'POST /store/order': (hit) => ({ body: { id: 99, ...(JSON.parse(hit.body) as object) } }),
  };
  const ORDER = { status: 'placed', complete: false };

  it('validate names the original\'s defects: pet_id for {petId} (an error), pet_tags for tags (a warning)', async () => {
    copyOfficial(h.ws, 'pet-coupons.arazzo.yaml');
    const result = await validate('pet-coupons.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toContain(
      'error MISSING_PATH_PARAMETER operation "getPetCoupons" (GET /pet/{petId}/coupons) needs path parameter "petId", which no parameter of step "find-coupons" fills; add one with name: petId and in: path',
    );
    expect(result.stdout).toContain('warning UNKNOWN_PARAMETER parameter "pet_id" (in: path) is not a parameter of operation "getPetCoupons" (GET /pet/{petId}/coupons) (did you mean "petId"?)');
    expect(result.stdout).toContain('warning UNKNOWN_PARAMETER parameter "pet_tags" (in: query) is not a parameter of operation "findPetsByTags" (GET /pet/findByTags)');
    expect(h.server.hits).toHaveLength(0);
  });

  it('the corrected copy validates clean', async () => {
    corrected('pet-coupons.arazzo.yaml');
    const result = await validate('pet-coupons.arazzo.yaml');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('valid Arazzo 1.0.0 — 3 workflows, 1 source; all features are supported by the v2 runner');
  });

  it('apply-coupon: finds the pet by tags, its coupon, then places the order through the nested place-order workflow', async () => {
    corrected('pet-coupons.arazzo.yaml');
    const result = await run('pet-coupons.arazzo.yaml', ['--workflow', 'apply-coupon', '--input', 'my_pet_tags:=["puppy","dalmatian"]', '--input', 'store_id=pets.example.com'], ROUTES);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['GET /pet/findByTags', 'GET /pet/7/coupons', 'POST /store/order']);
    // tags is form/explode: one tags= per item (the scripted server's query map keeps the last).
    expect(result.stderr).toContain(`find-pet GET ${h.server.url}/pet/findByTags?tags=puppy&tags=dalmatian 200`);
    expect(h.server.hits[1]!.query).toEqual({});
    // quantity: place-order declares it without requiring it, and no caller gives it: left out.
    expect(jsonBody(2)).toEqual({ petId: 7, couponCode: 'SAVE10', ...ORDER });
    expect(trail(record.steps)).toEqual(['apply-coupon.find-pet:200', 'apply-coupon.find-coupons:200', 'apply-coupon.place-order:0[place-order.place-order:200]']);
    expect(record.steps.map((s) => s.outputs)).toEqual([{ my_pet_id: 7 }, { my_coupon_code: 'SAVE10' }, { my_order_id: 99 }]);
    expect(record.steps[2]!.steps![0]!.outputs).toEqual({ step_order_id: 99 });
    expect(record).toMatchObject({ workflowId: 'apply-coupon', outputs: { apply_coupon_pet_order_id: 99 } });
    expect(result.stderr).toContain('place-order/place-order POST');
    expect(result.stderr).toContain('place-order → workflow place-order');
  });

  it('buy-available-pet: the shared page/pageSize component parameters with their step values, then the nested order', async () => {
    corrected('pet-coupons.arazzo.yaml');
    const result = await run('pet-coupons.arazzo.yaml', ['--workflow', 'buy-available-pet'], ROUTES);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['GET /pet/findByStatus', 'POST /store/order']);
    expect(h.server.hits[0]!.query).toEqual({ status: 'available', page: '1', pageSize: '10' });
    // No coupon and no quantity: inputs place-order does not require, left out of its payload.
    expect(jsonBody(1)).toEqual({ petId: 8, ...ORDER });
    expect(trail(record.steps)).toEqual(['buy-available-pet.find-pet:200', 'buy-available-pet.place-order:0[place-order.place-order:200]']);
    expect(record.outputs).toEqual({ buy_pet_order_id: 99 });
  });

  it('place-order on its own: --input strings coerced to the declared integer types', async () => {
    corrected('pet-coupons.arazzo.yaml');
    const result = await run('pet-coupons.arazzo.yaml', ['--workflow', 'place-order', '--input', 'pet_id=7', '--input', 'quantity=2', '--input', 'coupon_code=SAVE10'], ROUTES);
    expect(result.code).toBe(0);
    expect(recordOf(result)).toEqual({ status: 'succeeded',
      workflowId: 'place-order',
      outputs: { workflow_order_id: 99 },
      steps: [{ stepId: 'place-order', status: 200, dryRun: false, workflowId: 'place-order', outputs: { step_order_id: 99 } }],
    });
    expect(sent()).toEqual(['POST /store/order']);
    expect(jsonBody(0)).toEqual({ petId: 7, quantity: 2, couponCode: 'SAVE10', ...ORDER });
  });

  describe('defects validate does not see, shown on the original text', () => {
    const PATH_FIXES: Array<[string, string]> = [
      ['          - name: pet_tags\n', '          - name: tags\n'],
      ['          - name: pet_id\n            in: path\n', '          - name: petId\n            in: path\n'],
    ];

    it('the nested calls never give quantity, which place-order declares without requiring: the order goes without it (no repair needed)', async () => {
      copyOfficial(h.ws, 'pet-coupons.arazzo.yaml', PATH_FIXES);
      const result = await run('pet-coupons.arazzo.yaml', ['--workflow', 'apply-coupon', '--input', 'my_pet_tags:=["puppy"]', '--verbose'], ROUTES);
      expect(sent()).toEqual(['GET /pet/findByTags', 'GET /pet/7/coupons', 'POST /store/order']);
      expect(jsonBody(2)).toEqual({ petId: 7, couponCode: 'SAVE10', ...ORDER });
      expect(result.stderr).toContain('$inputs.quantity was not given and the workflow does not require it, so request body member /quantity is left out');
    });

    it('a workflow step has no HTTP response: its "$statusCode == 200" criterion fails the step after the order is placed', async () => {
      copyOfficial(h.ws, 'pet-coupons.arazzo.yaml', PATH_FIXES);
      const result = await run('pet-coupons.arazzo.yaml', ['--workflow', 'apply-coupon', '--input', 'my_pet_tags:=["puppy"]'], ROUTES);
      expect(result.code).toBe(1);
      expect(sent()).toEqual(['GET /pet/findByTags', 'GET /pet/7/coupons', 'POST /store/order']);
      expect(errorLine(result.stderr)).toBe('error: workflow "apply-coupon" failed at step "place-order": success criterion `$statusCode == 200` does not hold');
    });
  });
});

describe('oauth.arazzo.yaml (runs as published)', () => {
  const ROUTES: Routes = {
    'GET /authorize': { body: { code: 'code-1', access_token: 'pre' } },
    'POST /oauth/token': (hit) =>
      new URLSearchParams(hit.body).get('grant_type') === 'refresh_token'
        ? { body: { access_token: 'at-2', refresh_token: 'rt-2', expires_in: 60 } }
        : { body: { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 } },
  };
  const CLIENT = { client_id: 'cid', redirect_uri: 'https://app.example/cb' };
  const AUTHORIZE_QUERY = { ...CLIENT, response_type: 'code', scope: 'read', state: '12345' };
  const CODE_FORM = { grant_type: 'authorization_code', code: 'code-1', redirect_uri: CLIENT.redirect_uri, client_id: 'cid', client_secret: 'shh' };

  it('validates clean under v2', async () => {
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
    const result = await validate('oauth.arazzo.yaml');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('valid Arazzo 1.0.0 — 3 workflows, 1 source; all features are supported by the v2 runner');
  });

  it('refresh-token-flow: the nested authorization-code-flow gets the step parameters as inputs, then its refresh token is exchanged', async () => {
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
    const result = await run('oauth.arazzo.yaml', ['--workflow', 'refresh-token-flow', '--input', 'my_client_id=cid', '--input', 'my_client_secret=shh', '--input', `my_redirect_uri=${CLIENT.redirect_uri}`], ROUTES);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['GET /authorize', 'POST /oauth/token', 'POST /oauth/token']);
    expect(h.server.hits[0]!.query).toEqual(AUTHORIZE_QUERY);
    expect(h.server.hits[1]!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(formBody(1)).toEqual(CODE_FORM);
    expect(formBody(2)).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1' });
    expect(trail(record.steps)).toEqual([
      'refresh-token-flow.do-the-auth-flow:0[authorization-code-flow.browser-authorize:200 authorization-code-flow.get-access-token:200]',
      'refresh-token-flow.do-the-refresh:200',
    ]);
    expect(record.steps[0]!.outputs).toEqual({ my_refresh_token: 'rt-1' });
    expect(record.steps[0]!.steps!.map((s) => s.outputs)).toEqual([{ code: 'code-1' }, { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 }]);
    expect(record.outputs).toEqual({ access_token: 'at-2', refresh_token: 'rt-2', expires_in: 60 });
    expect(result.stderr).toContain('do-the-auth-flow/browser-authorize GET');
    expect(result.stderr).not.toContain('shh');
  });

  it('client-credentials-flow: its RFC 9535 jsonpath criterion is evaluated (holds with an access_token)', async () => {
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
    const result = await run('oauth.arazzo.yaml', ['--workflow', 'client-credentials-flow', '--input', 'client_id=cid', '--input', 'client_secret=shh'], ROUTES);
    expect(result.code).toBe(0);
    expect(recordOf(result)).toEqual({ status: 'succeeded',
      workflowId: 'client-credentials-flow',
      outputs: { access_token: 'at-1' },
      steps: [{ stepId: 'get-client-creds-token', status: 200, dryRun: false, workflowId: 'client-credentials-flow', outputs: { access_token: 'at-1' } }],
    });
    expect(sent()).toEqual(['POST /oauth/token']);
    expect(formBody(0)).toEqual({ client_id: 'cid', client_secret: 'shh', grant_type: 'client_credentials' });
    expect(result.stderr).not.toMatch(/jsonpath criterion .* skipped/);
  });

  it('client-credentials-flow: "$[?@.access_token != null]" does not guard anything (RFC 9535: an absent member is != null)', async () => {
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
    const args = ['--workflow', 'client-credentials-flow', '--input', 'client_id=cid', '--input', 'client_secret=shh'];
    // The root is the body; the filter tests its members, and a string member has no access_token, which is != null.
    const pending = await run('oauth.arazzo.yaml', args, { 'POST /oauth/token': { body: { error: 'authorization_pending' } } });
    expect(pending.code).toBe(0);
    expect(recordOf(pending).outputs).toEqual({ access_token: null });
    // Only a body with no members at all (an empty nodelist) fails it.
    const empty = await run('oauth.arazzo.yaml', args, { 'POST /oauth/token': { body: {} } });
    expect(empty.code).toBe(1);
    expect(trail(recordOf(empty).steps)).toEqual(['client-credentials-flow.get-client-creds-token:200']);
    expect(errorLine(empty.stderr)).toBe('error: workflow "client-credentials-flow" failed at step "get-client-creds-token": HTTP 200: success criterion `$[?@.access_token != null]` does not hold');
  });

  it('authorization-code-flow on its own', async () => {
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
    const result = await run('oauth.arazzo.yaml', ['--workflow', 'authorization-code-flow', '--input', 'client_id=cid', '--input', 'client_secret=shh', '--input', `redirect_uri=${CLIENT.redirect_uri}`], ROUTES);
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(trail(record.steps)).toEqual(['authorization-code-flow.browser-authorize:200', 'authorization-code-flow.get-access-token:200']);
    expect(record.outputs).toEqual({ access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 });
    expect(h.server.hits[0]!.query).toEqual(AUTHORIZE_QUERY);
    expect(formBody(1)).toEqual(CODE_FORM);
  });
});

describe('FAPI-PAR.arazzo.yaml', () => {
  const ASSERTION = { iss: 'cid', sub: 'cid', aud: 'https://as.example' };
  const PAR_BODY = { response_type: 'code', client_id: 'cid', scope: 'openid payments', code_challenge_method: 'S256', code_challenge: 'chal', state: 's-1' };
  const INPUTS = [
    '--input', 'client_id=cid',
    '--input', `client_assertion:=${JSON.stringify(ASSERTION)}`,
    '--input', 'redirect_uri=https://tpp.example/cb',
    '--input', 'code_verifier=verifier-1',
    '--input', `PARrequestBody:=${JSON.stringify(PAR_BODY)}`,
    '--input', 'TokenRequestBody:={"grant_type":"authorization_code","code":"-","redirect_uri":"-","code_verifier":"-"}',
  ];
  const routes = (authorize: Routes[string]): Routes => ({
    'POST /as/par.oauth2': { body: { request_uri: 'urn:ietf:params:oauth:request_uri:r-1', expires_in: 90 } },
    'GET /as/authorize.oauth2': authorize,
    'GET /cb': { body: 'landed' },
    'POST /as/token.oauth2': { body: { access_token: 'at-1', token_type: 'Bearer', expires_in: 300 } },
  });
  const CLIENT_AUTH = { client_id: 'cid', client_assertion_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', client_assertion: JSON.stringify(ASSERTION) };

  it('validate names the original\'s defect: operationId PAR, which the description spells Par', async () => {
    copyOfficial(h.ws, 'FAPI-PAR.arazzo.yaml');
    const result = await validate('FAPI-PAR.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toContain('error OPERATION_NOT_FOUND operation "PAR" is not in source "auth-api" (./FAPI-PAR.openapi.yaml) (did you mean "Par"?)');
  });

  it('the corrected copy runs PAR, authorize (a 302 answered without a Location) and token', async () => {
    corrected('FAPI-PAR.arazzo.yaml');
    const result = await run('FAPI-PAR.arazzo.yaml', INPUTS, routes({ status: 302, body: { code: 'code-1' } }));
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['POST /as/par.oauth2', 'GET /as/authorize.oauth2', 'POST /as/token.oauth2']);
    // client_assertion is a query parameter with content application/json: sent as JSON text.
    expect(h.server.hits[0]!.query).toEqual(CLIENT_AUTH);
    expect(jsonBody(0)).toEqual(PAR_BODY);
    expect(h.server.hits[1]!.query).toEqual({ request_uri: 'urn:ietf:params:oauth:request_uri:r-1', client_id: 'cid' });
    expect(h.server.hits[2]!.query).toEqual(CLIENT_AUTH);
    expect(jsonBody(2)).toEqual({ grant_type: 'authorization_code', code: 'code-1', redirect_uri: 'https://tpp.example/cb', code_verifier: 'verifier-1' });
    expect(trail(record.steps)).toEqual(['OIDC-PAR-AuthzCode.PARStep:200', 'OIDC-PAR-AuthzCode.AuthzCodeStep:302', 'OIDC-PAR-AuthzCode.TokenStep:200']);
    expect(record.steps.map((s) => s.outputs)).toEqual([
      { request_uri: 'urn:ietf:params:oauth:request_uri:r-1' },
      { code: 'code-1' },
      { tokenResponse: { access_token: 'at-1', token_type: 'Bearer', expires_in: 300 } },
    ]);
    expect(record.outputs).toEqual({ access_token: { access_token: 'at-1', token_type: 'Bearer', expires_in: 300 } });
  });

  it('a real redirect (with Location) is AuthzCodeStep\'s answer, not followed: the operation declares its 302', async () => {
    corrected('FAPI-PAR.arazzo.yaml');
    const result = await run('FAPI-PAR.arazzo.yaml', INPUTS, routes({ status: 302, headers: { location: `${h.server.url}/cb?code=code-1` }, body: { code: 'code-1' } }));
    expect(result.code).toBe(0);
    expect(sent()).toEqual(['POST /as/par.oauth2', 'GET /as/authorize.oauth2', 'POST /as/token.oauth2']);
    expect(trail(recordOf(result).steps)).toEqual(['OIDC-PAR-AuthzCode.PARStep:200', 'OIDC-PAR-AuthzCode.AuthzCodeStep:302', 'OIDC-PAR-AuthzCode.TokenStep:200']);
  });
});

describe('bnpl-arazzo.yaml', () => {
  const CUSTOMER = { firstName: 'Ann', lastName: 'Lee', dateOfBirth: '1990-01-01T00:00:00Z', postalCode: 'N1 9GU' };
  const PRODUCTS = [{ productCode: 'p1', purchaseAmount: { currency: 'EUR', amount: 120 } }];
  const INPUTS = ['--input', `customer:=${JSON.stringify(CUSTOMER)}`, '--input', `products:=${JSON.stringify(PRODUCTS)}`];
  const PLAN = { loanTransactionId: 'lt-1', status: 'Approved', installments: 3 };
  const routes = (products: unknown, transaction: Record<string, unknown> = { redirectAuthToken: 'tok-1' }): Routes => ({
    'POST /bnpl/v1/products': { body: products as object },
    'GET /bnpl/v1/terms-and-conditions': { body: ['Be nice'] },
    'POST /bnpl/v1/customers': { status: 201, body: { links: { self: 'https://bnpl.example/customers/c-1' } } },
    'POST /bnpl/v1/loan-transactions': { status: 202, body: { loanTransactionId: 'lt-1', links: { self: 'https://bnpl.example/loan-transactions/lt-1' }, ...transaction } },
    // 302 without a Location: with one, the runner follows the redirect (see the FAPI-PAR gap).
    'GET /bnpl/v1/auth': { status: 302 },
    'GET /bnpl/v1/loan-transactions/{id}': { body: PLAN },
    'PATCH /bnpl/v1/loan-transactions/{id}/status': { status: 204 },
  });
  const ELIGIBLE = { eligibilityCheckRequired: true, products: [{ productCode: 'p1' }], totalAmount: { currency: 'EUR', amount: 120 } };
  const W = 'ApplyForLoanAtCheckout';

  it('validate names the original\'s defects: outputs its steps do not declare, and a $steps expression without .outputs', async () => {
    copyOfficial(h.ws, 'bnpl-arazzo.yaml', [BNPL_SOURCE]);
    const result = await validate('bnpl-arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toContain(
      'error UNKNOWN_STEP_OUTPUT $steps.authenticateCustomerAndAuthorizeLoan.outputs.redirectAuthToken: step "authenticateCustomerAndAuthorizeLoan" has no output "redirectAuthToken" (it declares "redirectUrl")',
    );
    expect(result.stdout.match(/error UNKNOWN_STEP_OUTPUT \$steps\.initiateBnplTransaction\.outputs\.loanTransactionId: step "initiateBnplTransaction" has no output "loanTransactionId" \(it declares "redirectAuthToken", "loanTransactionResourceUrl"\)/g)).toHaveLength(2);
    expect(result.stdout).toContain('error EXPRESSION_SYNTAX "$steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan" is not a valid runtime expression');
    expect(result.stdout).toContain('warning UNKNOWN_PARAMETER parameter "redirectAuthToken" (in: query) is not a parameter of operation "getAuthorization" (GET /auth)');
    expect(result.stdout).toContain('4 errors, 1 warning');
  });

  it('the corrected copy runs the whole new-customer path: products, terms, customer, transaction, authorization, plan, status', async () => {
    corrected('bnpl-arazzo.yaml');
    const result = await run('bnpl-arazzo.yaml', INPUTS, routes(ELIGIBLE));
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual([
      'POST /bnpl/v1/products',
      'GET /bnpl/v1/terms-and-conditions',
      'POST /bnpl/v1/customers',
      'POST /bnpl/v1/loan-transactions',
      'GET /bnpl/v1/auth',
      'GET /bnpl/v1/loan-transactions/lt-1',
      'PATCH /bnpl/v1/loan-transactions/lt-1/status',
    ]);
    expect(jsonBody(0)).toEqual({ customer: CUSTOMER, products: PRODUCTS });
    expect(jsonBody(2)).toEqual({ ...CUSTOMER, termsAndConditionsAccepted: true });
    expect(jsonBody(3)).toEqual({ newCustomer: 'https://bnpl.example/customers/c-1', products: [{ productCode: 'p1' }] });
    expect(h.server.hits[4]!.query).toEqual({ AuthorizationToken: 'tok-1' });
    expect(jsonBody(6)).toEqual({ loanStatus: 'Completed' });
    expect(trail(record.steps)).toEqual([
      `${W}.checkLoanCanBeProvided:200`,
      `${W}.getCustomerTermsAndConditions:200`,
      `${W}.createCustomer:201`,
      `${W}.initiateBnplTransaction:202`,
      `${W}.authenticateCustomerAndAuthorizeLoan:302`,
      `${W}.retrieveFinalizedPaymentPlan:200`,
      `${W}.updateOrderStatus:204`,
    ]);
    expect(record.steps[3]!.outputs).toEqual({ redirectAuthToken: 'tok-1', loanTransactionResourceUrl: 'https://bnpl.example/loan-transactions/lt-1', loanTransactionId: 'lt-1' });
    expect(record.outputs).toEqual({ finalizedPaymentPlan: PLAN });
    expect(result.stderr).toContain('goto getCustomerTermsAndConditions');
  });

  it('no redirectAuthToken: the transaction goes straight to the payment plan', async () => {
    corrected('bnpl-arazzo.yaml');
    const result = await run('bnpl-arazzo.yaml', INPUTS, routes(ELIGIBLE, {}));
    expect(result.code).toBe(0);
    expect(sent()).toEqual([
      'POST /bnpl/v1/products',
      'GET /bnpl/v1/terms-and-conditions',
      'POST /bnpl/v1/customers',
      'POST /bnpl/v1/loan-transactions',
      'GET /bnpl/v1/loan-transactions/lt-1',
      'PATCH /bnpl/v1/loan-transactions/lt-1/status',
    ]);
    expect(recordOf(result).outputs).toEqual({ finalizedPaymentPlan: PLAN });
  });

  it('an empty product list ends the workflow after the first step (qualifyingProductsNotFound)', async () => {
    corrected('bnpl-arazzo.yaml');
    const result = await run('bnpl-arazzo.yaml', INPUTS, routes({ products: [] }));
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['POST /bnpl/v1/products']);
    expect(trail(record.steps)).toEqual([`${W}.checkLoanCanBeProvided:200`]);
    expect(record.outputs).toEqual({ finalizedPaymentPlan: null });
    expect(result.stderr).toContain('end (action "qualifyingProductsNotFound"');
  });

  it('the original jsonpath filters cannot tell a full list from an empty one under RFC 9535: a list of products ends the workflow too', async () => {
    corrected('bnpl-arazzo.yaml', [
      ['            condition: $.products[*]\n', '            condition: $[?count(@.products) > 0]\n'],
      ['          - condition: $response.body#/products/0 == null\n', '          - context: $response.body\n            type: jsonpath\n            condition: $[?count(@.products) == 0]\n'],
    ]);
    const result = await run('bnpl-arazzo.yaml', INPUTS, routes(ELIGIBLE));
    expect(result.code).toBe(0);
    expect(sent()).toEqual(['POST /bnpl/v1/products']);
    expect(result.stderr).toContain('end (action "qualifyingProductsNotFound": $statusCode == 200, $[?count(@.products) == 0])');
  });

  it('the original quoted "{$inputs.customer}" template makes the first payload invalid JSON once customer is an object', async () => {
    corrected('bnpl-arazzo.yaml', [['          "customer": {$inputs.customer},\n          "products": {$inputs.products}\n', '          "customer": "{$inputs.customer}",\n          "products": "{$inputs.products}"\n']]);
    const result = await run('bnpl-arazzo.yaml', INPUTS, routes(ELIGIBLE));
    expect(result.code).toBe(1);
    expect(h.server.hits).toHaveLength(0);
    expect(errorLine(result.stderr)).toContain('the payload is JSON text that does not parse');
  });

  it('the enrolled-customer path cannot be expressed: the transaction payload reads createCustomer, which did not run', async () => {
    corrected('bnpl-arazzo.yaml');
    const result = await run('bnpl-arazzo.yaml', ['--input', 'customer:={"uri":"https://bnpl.example/customers/c-9"}', '--input', `products:=${JSON.stringify(PRODUCTS)}`], routes({ ...ELIGIBLE, eligibilityCheckRequired: false }));
    expect(result.code).toBe(1);
    expect(sent()).toEqual(['POST /bnpl/v1/products', 'GET /bnpl/v1/terms-and-conditions']);
    expect(errorLine(result.stderr)).toContain('failed at step "initiateBnplTransaction": the request could not be built: request body: $steps.createCustomer.outputs.customer resolved to nothing');
  });
});

describe('LoginAndRetrievePets.arazzo.yaml', () => {
  it('validate names the original\'s defect: its operationPath points at a path item, not an operation', async () => {
    copyOfficial(h.ws, 'LoginAndRetrievePets.arazzo.yaml', [PETSTORE_SOURCE]);
    const result = await validate('LoginAndRetrievePets.arazzo.yaml');
    expect(result.code).toBe(10);
    expect(result.stdout).toContain(
      'error OPERATION_PATH_SYNTAX step "getPetStep": the pointer "/paths/~1pet~1findByStatus" names a path item, not an operation; add the method: /paths/~1pet~1findByStatus/get',
    );
  });

  it('the corrected copy logs in, then finds pets through the operationPath with the session token as Authorization', async () => {
    corrected('LoginAndRetrievePets.arazzo.yaml');
    const result = await run('LoginAndRetrievePets.arazzo.yaml', ['--input', 'username=ann', '--input', 'password=pw'], {
      'GET /user/login': { body: 'session-123', headers: { 'X-Rate-Limit': '5000', 'X-Expires-After': '2030-01-01T00:00:00Z' } },
      'GET /pet/findByStatus': { body: [{ id: 1, name: 'Rex', status: 'available' }] },
    });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['GET /user/login', 'GET /pet/findByStatus']);
    expect(h.server.hits[0]!.query).toEqual({ username: 'ann', password: 'pw' });
    expect(h.server.hits[1]!.query).toEqual({ status: 'available' });
    expect(h.server.hits[1]!.headers.authorization).toBe('session-123');
    expect(trail(record.steps)).toEqual(['loginUserRetrievePet.loginStep:200', 'loginUserRetrievePet.getPetStep:200']);
    expect(record.steps[0]!.outputs).toEqual({ tokenExpires: '2030-01-01T00:00:00Z', rateLimit: '5000', sessionToken: 'session-123' });
    expect(record.outputs).toEqual({ available: [{ id: 1, name: 'Rex', status: 'available' }] });
  });
});

describe('ExtendedParametersExample.arazzo.yaml (runs as published)', () => {
  it('sends the workflow-level cookie and header with every step, plus the step cookie', async () => {
    copyOfficial(h.ws, 'ExtendedParametersExample.arazzo.yaml');
    const result = await run('ExtendedParametersExample.arazzo.yaml', [], { 'POST /animals': { status: 201, body: { id: 1 } }, 'GET /animals/random': { body: { name: 'okapi' } } });
    expect(result.code).toBe(0);
    const record = recordOf(result);
    expect(sent()).toEqual(['POST /animals', 'GET /animals/random']);
    expect(trail(record.steps)).toEqual(['animal-workflow.post-step:201', 'animal-workflow.get-step:200']);
    expect(record.outputs).toEqual({});
    const cookies = (header: string | undefined) => Object.fromEntries((header ?? '').split(/;\s*/).map((c) => c.split('=')));
    const [post, get] = h.server.hits;
    expect(cookies(post!.headers.cookie)).toEqual({ workflowLevelParamOne: 'someValue', authentication: 'SUPER_SECRET' });
    expect(cookies(get!.headers.cookie)).toEqual({ workflowLevelParamOne: 'someValue' });
    expect([post!.headers.workflowlevelparamtwo, get!.headers.workflowlevelparamtwo]).toEqual(['someValue', 'someValue']);
    expect(result.stderr).not.toContain('SUPER_SECRET');
  });
});
