import { describe, expect, it } from '@jest/globals';
import { findByPath, missingOperation, OperationPathSyntaxError, parseOperationPath } from '../../../src/arazzo/operation-path.js';

const OPERATIONS = [
  { method: 'GET', path: '/pets/{petId}' },
  { method: 'DELETE', path: '/pets/{petId}' },
  { method: 'POST', path: '/a~b/c d' },
];

describe('parseOperationPath', () => {
  it('reads the source and the pointer /paths/<path>/<method>, ~1 as "/" and ~0 as "~"', () => {
    expect(parseOperationPath('{$sourceDescriptions.api.url}#/paths/~1pets~1{petId}/get')).toEqual({ source: 'api', path: '/pets/{petId}', method: 'get' });
    expect(parseOperationPath('{$sourceDescriptions.api.url}#/paths/~1a~0b~1c d/post')).toEqual({ source: 'api', path: '/a~b/c d', method: 'post' });
  });

  it('percent-decodes the fragment before reading the pointer', () => {
    expect(parseOperationPath('{$sourceDescriptions.api.url}#/paths/%7E1pets%7E1%7BpetId%7D/get')).toEqual({ source: 'api', path: '/pets/{petId}', method: 'get' });
    expect(parseOperationPath('{$sourceDescriptions.api.url}#/paths/~1a~0b~1c%20d/post').path).toBe('/a~b/c d');
    // A "/" escaped as %2F is a separator once decoded; ~1 is the way to put one in a path.
    expect(parseOperationPath('{$sourceDescriptions.api.url}#%2Fpaths%2F~1x%2Fget')).toEqual({ source: 'api', path: '/x', method: 'get' });
  });

  it.each([
    ['#/paths/~1pets/get', 'operationPath must be written {$sourceDescriptions.<name>.url}#/paths/'],
    ['{$sourceDescriptions.api.url}/paths/~1pets/get', 'operationPath must be written'],
    ['{$sourceDescriptions.api.url}#/paths/%E0%A4%A/get', 'has a malformed percent-escape'],
    ['{$sourceDescriptions.api.url}#/paths/~2pets/get', '"~" not followed by 0 or 1'],
    ['{$sourceDescriptions.api.url}#/components/schemas/Pet', 'must name an operation, /paths/<path>/<method>'],
    ['{$sourceDescriptions.api.url}#/paths/~1pets', 'names a path item, not an operation; end it with the method, e.g. /paths/~1pets/get'],
  ])('refuses %s', (text, message) => {
    expect(() => parseOperationPath(text)).toThrow(OperationPathSyntaxError);
    expect(() => parseOperationPath(text)).toThrow(message);
  });
});

describe('findByPath and missingOperation', () => {
  it('finds the operation by exact path and lower-case method', () => {
    expect(findByPath(OPERATIONS, { source: 'api', path: '/pets/{petId}', method: 'delete' })).toBe(OPERATIONS[1]);
    expect(findByPath(OPERATIONS, { source: 'api', path: '/pets/{petId}', method: 'GET' })).toBeUndefined();
  });

  it('suggests the closest path, or names the methods the path has', () => {
    expect(missingOperation(OPERATIONS, { source: 'api', path: '/pet/{petId}', method: 'get' })).toBe('source "api" has no path "/pet/{petId}" (did you mean "/pets/{petId}"?)');
    expect(missingOperation(OPERATIONS, { source: 'api', path: '/pets/{petId}', method: 'GET' })).toBe('path "/pets/{petId}" of source "api" has no GET operation (did you mean "get"?); it has get, delete');
  });
});
