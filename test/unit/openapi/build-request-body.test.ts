import { describe, expect, it } from '@jest/globals';
import { buildRequestBody } from '../../../src/openapi/build-request-body.js';
import { RequestBuildError } from '../../../src/openapi/errors.js';

function bodyError(encode: () => unknown): RequestBuildError {
  try {
    encode();
  } catch (err) {
    if (err instanceof RequestBuildError) return err;
    throw err;
  }
  throw new Error('expected a RequestBuildError');
}

describe('buildRequestBody', () => {
  it('JSON-encodes objects for application/json and +json types, keeping the type as given', () => {
    expect(buildRequestBody({ a: 1, b: [true, null] }, 'application/json', 'op')).toEqual({ kind: 'bytes', contentType: 'application/json', data: '{"a":1,"b":[true,null]}' });
    expect(buildRequestBody({ op: 'add' }, 'application/merge-patch+json; charset=utf-8', 'op')).toEqual({
      kind: 'bytes',
      contentType: 'application/merge-patch+json; charset=utf-8',
      data: '{"op":"add"}',
    });
  });

  it('sends a JSON-text string payload as written and JSON-encodes other strings and scalars', () => {
    expect(buildRequestBody('{\n  "petId": "12"\n}', 'application/json', 'op')).toMatchObject({ data: '{\n  "petId": "12"\n}' });
    expect(buildRequestBody('hello', 'application/json', 'op')).toMatchObject({ data: '"hello"' });
    expect(buildRequestBody('123', 'application/json', 'op')).toMatchObject({ data: '"123"' });
    expect(buildRequestBody(42, 'application/json', 'op')).toMatchObject({ data: '42' });
    expect(buildRequestBody(null, 'application/json', 'op')).toMatchObject({ data: 'null' });
  });

  it('rejects JSON text that does not parse', () => {
    const err = bodyError(() => buildRequestBody('{"name": "O"Brien"}', 'application/json', 'createPet'));
    expect(err.code).toBe('BAD_BODY');
    expect(err.message).toContain('operation "createPet": the payload is JSON text that does not parse');
  });

  it('rejects a payload JSON cannot encode', () => {
    const err = bodyError(() => buildRequestBody({ n: 10n }, 'application/json', 'op'));
    expect(err.code).toBe('BAD_BODY');
    expect(err.message).toContain('cannot be encoded as JSON');
  });

  it('form-urlencodes objects, JSON-encoding nested objects, and sends strings as is', () => {
    expect(buildRequestBody({ name: 'a b&c', age: 3, tags: ['x', 'y'], owner: { id: 1 }, gone: undefined, none: null }, 'application/x-www-form-urlencoded', 'op')).toEqual({
      kind: 'bytes',
      contentType: 'application/x-www-form-urlencoded',
      data: 'name=a+b%26c&age=3&tags=x&tags=y&owner=%7B%22id%22%3A1%7D&none=',
    });
    expect(buildRequestBody('a=1&b=2', 'application/x-www-form-urlencoded', 'op')).toMatchObject({ data: 'a=1&b=2' });
  });

  it('rejects a form-urlencoded payload that is neither object nor string', () => {
    expect(bodyError(() => buildRequestBody([1], 'application/x-www-form-urlencoded', 'op')).code).toBe('BAD_BODY');
  });

  it('makes one multipart part per key: JSON parts for objects, binary parts for buffers', () => {
    const photo = Buffer.from([0xff, 0xd8, 0x00]);
    expect(buildRequestBody({ name: 'Rex', age: 3, meta: { a: 1 }, list: [1], photo, skipped: undefined }, 'multipart/form-data', 'op')).toEqual({
      kind: 'multipart',
      parts: [
        { name: 'name', value: 'Rex' },
        { name: 'age', value: '3' },
        { name: 'meta', value: '{"a":1}', contentType: 'application/json' },
        { name: 'list', value: '[1]', contentType: 'application/json' },
        { name: 'photo', value: photo, contentType: 'application/octet-stream', filename: 'photo' },
      ],
    });
  });

  it('rejects a multipart payload that is not an object', () => {
    const err = bodyError(() => buildRequestBody('raw', 'multipart/form-data', 'upload'));
    expect(err.code).toBe('BAD_BODY');
    expect(err.message).toBe('operation "upload": a multipart/form-data payload must be an object (one part per key), got string');
  });

  it('sends text types as strings, JSON-encoding objects', () => {
    expect(buildRequestBody('plain', 'text/plain', 'op')).toEqual({ kind: 'bytes', contentType: 'text/plain', data: 'plain' });
    expect(buildRequestBody(12, 'text/csv', 'op')).toMatchObject({ data: '12' });
    expect(buildRequestBody({ a: 1 }, 'text/plain; charset=utf-8', 'op')).toMatchObject({ data: '{"a":1}' });
  });

  it('sends octet-stream strings and buffers as is and rejects other values', () => {
    const bytes = Buffer.from('abc');
    expect(buildRequestBody(bytes, 'application/octet-stream', 'op')).toEqual({ kind: 'bytes', contentType: 'application/octet-stream', data: bytes });
    expect(buildRequestBody('abc', 'application/octet-stream', 'op')).toMatchObject({ data: 'abc' });
    expect(bodyError(() => buildRequestBody({ a: 1 }, 'application/octet-stream', 'op')).code).toBe('BAD_BODY');
  });

  it('sends a string of any other type as is', () => {
    expect(buildRequestBody('<pet/>', 'application/xml', 'op')).toEqual({ kind: 'bytes', contentType: 'application/xml', data: '<pet/>' });
  });

  it('JSON-encodes a non-string payload of a JSON-like type', () => {
    expect(buildRequestBody({ a: 1 }, 'application/x-ndjson', 'op')).toMatchObject({ data: '{"a":1}' });
  });

  it('refuses a non-string payload of a type it cannot serialise', () => {
    const err = bodyError(() => buildRequestBody({ a: 1 }, 'application/xml', 'updatePet'));
    expect(err.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect(err.message).toBe('operation "updatePet": cannot serialise a payload of type object as application/xml; give the payload as a string in that format');
  });
});
