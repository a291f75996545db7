import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DescriptionError } from '../../../src/openapi/errors.js';
import { parseDescription } from '../../../src/openapi/parse-description.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/openapi');
const examples = fileURLToPath(new URL('../../fixtures/arazzo-examples/examples/1.0.0', import.meta.url));

async function parseFixture(name: string) {
  const location = join(fixtures, name);
  return parseDescription(await readFile(location, 'utf8'), location);
}

async function failure(promise: Promise<unknown>): Promise<DescriptionError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DescriptionError) return err;
    throw err;
  }
  throw new Error('expected a DescriptionError');
}

describe('parseDescription', () => {
  it('indexes a 3.0 YAML description by operationId with methods, paths and pointers', async () => {
    const description = await parseFixture('petstore.yaml');
    expect(description.version).toBe('3.0.3');
    expect(description.title).toBe('Petstore');
    expect([...description.operations.keys()]).toEqual(['listPets', 'createPet', 'getPet', 'deletePet']);
    const getPet = description.operations.get('getPet');
    expect(getPet?.method).toBe('GET');
    expect(getPet?.path).toBe('/pets/{petId}');
    expect(getPet?.pointer).toBe('/paths/~1pets~1{petId}/get');
    expect(getPet?.pathTemplate).toEqual([{ literal: '/pets/' }, { param: 'petId' }]);
  });

  it('fills server variables with their defaults and lists operation, then path, then document servers', async () => {
    const description = await parseFixture('petstore.yaml');
    expect(description.servers).toEqual(['https://eu.pets.example.com/v1', '/relative/v1']);
    expect(description.operations.get('getPet')?.servers).toEqual([
      'https://pets-read.example.com',
      'https://eu.pets.example.com/v1',
      '/relative/v1',
    ]);
  });

  it('merges path-level and operation-level parameters, the operation winning by name and location', async () => {
    const getPet = (await parseFixture('petstore.yaml')).operations.get('getPet');
    expect(getPet?.parameters).toEqual([
      { name: 'petId', in: 'path', required: true, schema: { type: 'integer' } },
      { name: 'x-trace', in: 'header', required: true, schema: { type: 'string' } },
    ]);
    const deletePet = (await parseFixture('petstore.yaml')).operations.get('deletePet');
    expect(deletePet?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:petId', 'header:X-Trace']);
  });

  it('resolves $refs to component parameters, request bodies and (circular) schemas', async () => {
    const description = await parseFixture('petstore.yaml');
    const listPets = description.operations.get('listPets');
    expect(listPets?.parameters[0]).toEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } });
    expect(listPets?.parameters[1]).toMatchObject({ name: 'tags', style: 'form', explode: false });
    expect(description.operations.get('createPet')?.requestBody).toEqual({
      required: true,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    });
    // Body schemas are not dereferenced, so the recursive Pet schema leaves no cycle behind.
    expect(JSON.stringify([...description.operations.values()])).toContain('"operationId":"createPet"');
  });

  it('derives the Accept header from JSON response media types', async () => {
    const description = await parseFixture('petstore.yaml');
    expect(description.operations.get('listPets')?.accept).toBe('application/json');
    expect(description.operations.get('getPet')?.accept).toBe('application/json');
    expect(description.operations.get('deletePet')?.accept).toBeUndefined();
  });

  it('reads a 3.1 JSON description with content parameters and a +json response', async () => {
    const description = await parseFixture('petstore-31.json');
    const upload = description.operations.get('uploadPhoto');
    expect(description.version).toBe('3.1.0');
    expect(upload?.method).toBe('POST');
    expect(upload?.parameters).toEqual([
      { name: 'petId', in: 'path', required: true, schema: { type: ['string', 'integer'] } },
      { name: 'filter', in: 'query', required: false, contentType: 'application/json' },
    ]);
    expect(upload?.requestBody).toEqual({ required: false, contentTypes: ['multipart/form-data'] });
    expect(upload?.accept).toBe('application/vnd.pets+json');
  });

  it('resolves a relative-file $ref against the description file, including refs inside the other file', async () => {
    const description = await parseFixture('split/main.yaml');
    expect(description.operations.get('listItems')?.parameters).toEqual([
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', maximum: 100 } },
    ]);
  });

  it('uses the spec default server "/" when none is declared', async () => {
    expect((await parseFixture('split/main.yaml')).servers).toEqual(['/']);
  });

  it('makes relative servers absolute against a description URL', async () => {
    const text = 'openapi: 3.0.0\ninfo: {title: t, version: "1"}\nservers: [{url: /bnpl/v1}]\npaths: {}\n';
    const description = await parseDescription(text, 'https://api.example.com/specs/bnpl.yaml');
    expect(description.servers).toEqual(['https://api.example.com/bnpl/v1']);
  });

  it('rejects a Swagger 2.0 description and says to convert it', async () => {
    const err = await failure(parseFixture('swagger2.yaml'));
    expect(err.code).toBe('DESCRIPTION_INVALID');
    expect(err.location).toBe(join(fixtures, 'swagger2.yaml'));
    expect(err.message).toContain('swagger2.yaml: this is a Swagger 2.0 description');
    expect(err.message).toContain('convert it');
  });

  it('rejects an unsupported openapi version', async () => {
    const err = await failure(parseFixture('openapi-2-version.yaml'));
    expect(err.code).toBe('DESCRIPTION_INVALID');
    expect(err.message).toContain('declares openapi 2.5.0; only OpenAPI 3.0.x and 3.1.x are supported');
  });

  it('rejects a document without an openapi field', async () => {
    const err = await failure(parseDescription('info: {title: x}\n', 'x.yaml'));
    expect(err.message).toBe('x.yaml: no "openapi" version field; is this an OpenAPI 3.0 or 3.1 description?');
  });

  it('names the file, line and column of a YAML syntax error', async () => {
    const err = await failure(parseFixture('malformed.yaml'));
    expect(err.code).toBe('DESCRIPTION_INVALID');
    expect(err.message).toMatch(new RegExp(`^${join(fixtures, 'malformed.yaml')}:9:\\d+: YAML syntax error: `));
    expect(err.message).not.toContain('\n');
  });

  it('names the line and column of a JSON syntax error', async () => {
    const err = await failure(parseDescription('{\n  "openapi": "3.1.0",\n  "info": {,}\n}', 'broken.json'));
    expect(err.message).toMatch(/^broken\.json:3:\d+: YAML syntax error: /);
  });

  it('reports a $ref to a missing component as DESCRIPTION_REF', async () => {
    const err = await failure(parseFixture('split/broken-ref.yaml'));
    expect(err.code).toBe('DESCRIPTION_REF');
    expect(err.message).toContain('split/broken-ref.yaml#/paths/~1items/get/parameters/0: $ref target ');
    expect(err.message).toContain('split/common.yaml#/components/parameters/Offset does not exist');
    expect(err.message).not.toContain('\n');
  });

  it('rejects an operationId used twice, naming both operations', async () => {
    const err = await failure(parseFixture('duplicate-operation-id.yaml'));
    expect(err.code).toBe('DESCRIPTION_INVALID');
    expect(err.message).toContain('operationId "pets" is used by both #/paths/~1pets/get and #/paths/~1animals/get');
  });

  it('rejects a parameter with an unknown location', async () => {
    const text = 'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters: [{name: b, in: body}]\n';
    const err = await failure(parseDescription(text, 'p.yaml'));
    expect(err.message).toBe('p.yaml#/paths/~1a/get/parameters/0: parameter "b" has "in: body"; use path, query, header or cookie; fix the description');
  });
});

describe('parseDescription on the official Arazzo example descriptions', () => {
  async function parseExample(name: string) {
    const location = join(examples, name);
    return parseDescription(await readFile(location, 'utf8'), location);
  }

  it('reads pet-coupons.openapi.yaml', async () => {
    const description = await parseExample('pet-coupons.openapi.yaml');
    expect(description.operations.get('findPetsByTags')).toMatchObject({ method: 'GET', path: '/pet/findByTags' });
    expect(description.operations.get('getPetCoupons')).toMatchObject({ method: 'GET', path: '/pet/{petId}/coupons' });
    expect(description.operations.get('placeOrder')).toMatchObject({ method: 'POST', path: '/store/order' });
    expect(description.operations.get('deletePet')?.method).toBe('DELETE');
  });

  it('reads bnpl-openapi.yaml and keeps its relative server as written', async () => {
    const description = await parseExample('bnpl-openapi.yaml');
    expect(description.servers).toEqual(['/bnpl/v1']);
    expect(description.operations.get('updateBnplLoanTransactionStatus')).toMatchObject({
      method: 'PATCH',
      path: '/loan-transactions/{loanTransactionId}/status',
    });
    expect(description.operations.get('createCustomer')?.requestBody?.contentTypes).toContain('application/json');
  });

  it('reads oauth.openapi.yaml (OpenAPI 3.1)', async () => {
    const description = await parseExample('oauth.openapi.yaml');
    expect(description.version).toBe('3.1.0');
    expect(description.operations.get('get-token')).toMatchObject({ method: 'POST', path: '/oauth/token', servers: ['https://auth.example.com'] });
    expect(description.operations.get('authorize')?.method).toBe('GET');
  });

  it('reads FAPI-PAR.openapi.yaml and ignores operationIds inside links', async () => {
    const description = await parseExample('FAPI-PAR.openapi.yaml');
    expect(description.operations.get('Par')).toMatchObject({ method: 'POST', path: '/as/par.oauth2' });
    expect(description.operations.get('Authorization')).toMatchObject({ method: 'GET', path: '/as/authorize.oauth2' });
    expect(description.operations.get('Token')).toMatchObject({ method: 'POST', path: '/as/token.oauth2' });
    expect(description.operations.get('Par')?.servers[0]).toBe('https://api.uat.example.com/');
  });
});
