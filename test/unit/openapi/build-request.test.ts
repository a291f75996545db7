import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRequest } from '../../../src/openapi/build-request.js';
import { RequestBuildError } from '../../../src/openapi/errors.js';
import { parseDescription } from '../../../src/openapi/parse-description.js';
import { compilePathTemplate } from '../../../src/openapi/path-template.js';
import { usableServerUrl } from '../../../src/openapi/servers.js';
import type { OpenApiDescription, Operation } from '../../../src/openapi/types.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/openapi');

function operation(fields: Partial<Operation> & Pick<Operation, 'path'>): Operation {
  return {
    operationId: 'op',
    method: 'GET',
    servers: [],
    parameters: [],
    pointer: '/paths/x/get',
    pathTemplate: compilePathTemplate(fields.path),
    ...fields,
  };
}

function buildError(build: () => unknown): RequestBuildError {
  try {
    build();
  } catch (err) {
    if (err instanceof RequestBuildError) return err;
    throw err;
  }
  throw new Error('expected a RequestBuildError');
}

let petstore: OpenApiDescription;
function op(id: string): Operation {
  const found = petstore.operations.get(id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

beforeAll(async () => {
  const location = join(fixtures, 'petstore.yaml');
  petstore = await parseDescription(await readFile(location, 'utf8'), location);
});

describe('buildRequest URLs', () => {
  it.each([
    ['http://h:1/v1', 'http://h:1/v1/pets'],
    ['http://h:1/v1/', 'http://h:1/v1/pets'],
    ['http://h:1', 'http://h:1/pets'],
    ['http://h:1/', 'http://h:1/pets'],
    ['https://api.example.com/a/b//', 'https://api.example.com/a/b/pets'],
  ])('joins base URL %s with the operation path', (baseUrl, url) => {
    expect(buildRequest(op('listPets'), { baseUrl, parameters: [] }).url).toBe(url);
  });

  it('keeps a query already on the base URL before the parameters and drops its fragment', () => {
    const request = buildRequest(op('listPets'), { baseUrl: 'http://h/v1?key=k#top', parameters: [{ name: 'limit', in: 'query', value: 5 }] });
    expect(request.url).toBe('http://h/v1/pets?key=k&limit=5');
  });

  it('substitutes and encodes path parameters and appends query parameters in order', () => {
    const request = buildRequest(op('getPet'), {
      baseUrl: 'http://127.0.0.1:8080',
      parameters: [
        { name: 'petId', in: 'path', value: 'a/b c' },
        { name: 'extra', in: 'query', value: 'x y' },
        { name: 'flag', in: 'query', value: true },
      ],
    });
    expect(request.method).toBe('GET');
    expect(request.url).toBe('http://127.0.0.1:8080/pets/a%2Fb%20c?extra=x%20y&flag=true');
  });

  it('applies the declared style and explode of a query parameter', () => {
    const request = buildRequest(op('listPets'), {
      baseUrl: 'http://h',
      parameters: [{ name: 'tags', in: 'query', value: ['cat', 'small dog'] }],
    });
    expect(request.url).toBe('http://h/pets?tags=cat,small%20dog');
  });

  it('looks up the location of a parameter given without "in"', () => {
    const request = buildRequest(op('getPet'), {
      baseUrl: 'http://h',
      parameters: [{ name: 'petId', value: 7 }, { name: 'x-trace', value: 'abc' }],
    });
    expect(request.url).toBe('http://h/pets/7');
    expect(request.headers['x-trace']).toBe('abc');
  });

  it('serialises a content-style query parameter as JSON', () => {
    const upload = operation({
      path: '/pets/{petId}/photos',
      parameters: [{ name: 'filter', in: 'query', required: false, contentType: 'application/json' }],
    });
    const request = buildRequest(upload, {
      baseUrl: 'http://h',
      parameters: [{ name: 'petId', in: 'path', value: 1 }, { name: 'filter', in: 'query', value: { a: [1] } }],
    });
    expect(request.url).toBe('http://h/pets/1/photos?filter=%7B%22a%22%3A%5B1%5D%7D');
  });

  it('uses label and matrix styles declared on path parameters', () => {
    const styled = operation({
      path: '/a/{label}/b/{matrix}',
      parameters: [
        { name: 'label', in: 'path', required: true, style: 'label', explode: true },
        { name: 'matrix', in: 'path', required: true, style: 'matrix' },
      ],
    });
    const request = buildRequest(styled, {
      baseUrl: 'http://h',
      parameters: [{ name: 'label', in: 'path', value: [1, 2] }, { name: 'matrix', in: 'path', value: { x: 'y z' } }],
    });
    expect(request.url).toBe('http://h/a/.1.2/b/;matrix=x,y%20z');
  });
});

describe('buildRequest headers', () => {
  it('sends header parameters, undeclared ones too, and Accept from JSON responses', () => {
    const request = buildRequest(op('getPet'), {
      baseUrl: 'http://h',
      parameters: [{ name: 'petId', in: 'path', value: 1 }, { name: 'X-Trace', in: 'header', value: ['a', 'b'] }, { name: 'X-Other', in: 'header', value: 3 }],
    });
    expect(request.headers).toEqual({ 'X-Trace': 'a,b', 'X-Other': '3', Accept: 'application/json' });
  });

  it('keeps an explicit Accept header parameter', () => {
    const request = buildRequest(op('listPets'), { baseUrl: 'http://h', parameters: [{ name: 'accept', in: 'header', value: 'text/csv' }] });
    expect(request.headers).toEqual({ accept: 'text/csv' });
  });

  it('joins cookie parameters into one Cookie header, after an explicit one', () => {
    const request = buildRequest(op('deletePet'), {
      baseUrl: 'http://h',
      parameters: [
        { name: 'petId', in: 'path', value: 1 },
        { name: 'Cookie', in: 'header', value: 'a=1' },
        { name: 'session', in: 'cookie', value: 'abc' },
        { name: 'prefs', in: 'cookie', value: { theme: 'dark' } },
      ],
    });
    expect(request.method).toBe('DELETE');
    expect(request.headers).toEqual({ Cookie: 'a=1; session=abc; theme=dark' });
  });
});

describe('buildRequest bodies', () => {
  it('encodes the body with the operation\'s first content type and sets Content-Type', () => {
    const request = buildRequest(op('createPet'), { baseUrl: 'http://h', parameters: [], body: { payload: { name: 'Rex' } } });
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({ kind: 'bytes', contentType: 'application/json', data: '{"name":"Rex"}' });
    expect(request.headers['Content-Type']).toBe('application/json');
  });

  it('prefers the step\'s contentType over the description\'s', () => {
    const request = buildRequest(op('createPet'), {
      baseUrl: 'http://h',
      parameters: [],
      body: { contentType: 'application/x-www-form-urlencoded', payload: { name: 'Rex Jr', tags: ['a', 'b'] } },
    });
    expect(request.body).toEqual({ kind: 'bytes', contentType: 'application/x-www-form-urlencoded', data: 'name=Rex+Jr&tags=a&tags=b' });
    expect(request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
  });

  it('uses a Content-Type header parameter when the step gives no contentType', () => {
    const request = buildRequest(op('createPet'), {
      baseUrl: 'http://h',
      parameters: [{ name: 'content-type', in: 'header', value: 'text/plain' }],
      body: { payload: 'hello' },
    });
    expect(request.headers).toEqual({ 'Content-Type': 'text/plain' });
    expect(request.body).toEqual({ kind: 'bytes', contentType: 'text/plain', data: 'hello' });
  });

  it('defaults to application/json when the operation declares no request body', () => {
    const request = buildRequest(op('listPets'), { baseUrl: 'http://h', parameters: [], body: { payload: [1, 2] } });
    expect(request.body).toEqual({ kind: 'bytes', contentType: 'application/json', data: '[1,2]' });
  });

  it('skips wildcard request content types when choosing one', () => {
    const wildcard = operation({ path: '/upload', method: 'PUT', requestBody: { required: true, contentTypes: ['*/*', 'text/csv'] } });
    const request = buildRequest(wildcard, { baseUrl: 'http://h', parameters: [], body: { payload: 'a,b' } });
    expect(request.body).toEqual({ kind: 'bytes', contentType: 'text/csv', data: 'a,b' });
  });

  it('leaves Content-Type to the pipeline for multipart bodies', () => {
    const request = buildRequest(op('createPet'), {
      baseUrl: 'http://h',
      parameters: [],
      body: { contentType: 'multipart/form-data', payload: { name: 'Rex' } },
    });
    expect(request.body).toEqual({ kind: 'multipart', parts: [{ name: 'name', value: 'Rex' }] });
    expect(request.headers).toEqual({});
  });

  it('sends no body when the payload is undefined', () => {
    const request = buildRequest(op('createPet'), { baseUrl: 'http://h', parameters: [], body: { payload: undefined } });
    expect(request.body).toBeUndefined();
    expect(request.headers).toEqual({});
  });
});

describe('buildRequest errors', () => {
  it('names a missing path parameter', () => {
    const err = buildError(() => buildRequest(op('getPet'), { baseUrl: 'http://h', parameters: [] }));
    expect(err.code).toBe('MISSING_PATH_PARAMETER');
    expect(err.message).toBe('operation "getPet" (GET /pets/{petId}) needs path parameter "petId"; add it to the step\'s parameters with in: path');
  });

  it('rejects an unknown "in"', () => {
    const err = buildError(() => buildRequest(op('listPets'), { baseUrl: 'http://h', parameters: [{ name: 'x', in: 'body', value: 1 }] }));
    expect(err.code).toBe('UNKNOWN_PARAMETER_LOCATION');
    expect(err.message).toContain('parameter "x" has in: "body"');
  });

  it('rejects a parameter without "in" that the operation does not declare', () => {
    const err = buildError(() => buildRequest(op('listPets'), { baseUrl: 'http://h', parameters: [{ name: 'nope', value: 1 }] }));
    expect(err.code).toBe('UNKNOWN_PARAMETER_LOCATION');
    expect(err.message).toContain('operation "listPets" declares no parameter "nope"');
  });

  it.each(['', '/relative/v1', 'ftp://h/x', 'http://'])('rejects the base URL "%s"', (baseUrl) => {
    const err = buildError(() => buildRequest(op('listPets'), { baseUrl, parameters: [] }));
    expect(err.code).toBe('NO_SERVER_URL');
    expect(err.message).toContain('operation "listPets": no absolute http(s) base URL');
  });
});

describe('usableServerUrl', () => {
  it('returns the first absolute http(s) server of the operation', () => {
    expect(usableServerUrl(op('getPet'))).toBe('https://pets-read.example.com');
    expect(usableServerUrl(operation({ path: '/', servers: ['/v1', 'wss://x', 'http://h/v2'] }))).toBe('http://h/v2');
  });

  it('returns undefined when every server is relative or has an unfilled variable', () => {
    expect(usableServerUrl(operation({ path: '/', servers: ['/v1', 'https://{tenant}.example.com'] }))).toBeUndefined();
  });
});
