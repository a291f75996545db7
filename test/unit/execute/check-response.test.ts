/**
 * Response checks on parsed descriptions: which declared status and media type a response falls
 * under (`2XX`, `default`, `text/*`), what a schema reports (pointer and keyword, never the
 * value), the OpenAPI 3.0 dialect, and schemas kept through the parsed-description cache.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsedStore } from '../../../src/cache/parsed-store.js';
import { checkResponse } from '../../../src/execute/check-response.js';
import { createResponseValidators } from '../../../src/execute/response-validators.js';
import type { HttpResponse } from '../../../src/http/types.js';
import { parseDescription } from '../../../src/openapi/parse-description.js';
import type { OpenApiDescription } from '../../../src/openapi/types.js';

const DESCRIPTION = (version: string, extra = '') => `
openapi: ${version}
info: { title: t, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '2XX':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Things' }
            'text/*': {}
        default:
          description: problem
          content:
            application/problem+json:
              schema: { type: object, required: [title], properties: { title: { type: string } } }
${extra}
components:
  schemas:
    Things:
      type: array
      items: { $ref: '#/components/schemas/Thing' }
    Thing:
      type: object
      required: [id]
      properties:
        id: { type: integer, minimum: 1, exclusiveMinimum: true }
        note: { type: string, nullable: true, enum: [a, b] }
`;

function response(status: number, contentType: string | undefined, body: unknown): HttpResponse {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: contentType === undefined ? {} : { 'content-type': contentType }, body, bytes: Buffer.from(text), url: 'http://x/things', durationMs: 1, retries: 0 };
}

async function check(description: OpenApiDescription, answer: HttpResponse, validators = createResponseValidators()) {
  return checkResponse('warn', description.operations.get('listThings')!, description, answer, validators);
}

describe('checkResponse', () => {
  it('matches a status by its range, then by default', async () => {
    const d = await parseDescription(DESCRIPTION('3.0.3'), '/d.yaml');
    expect((await check(d, response(204, undefined, undefined)))!).toMatchObject({ against: 'GET /things 2XX', mismatches: [] });
    expect((await check(d, response(500, 'application/problem+json', { title: 'down' })))!).toMatchObject({ against: 'GET /things default application/problem+json', mismatches: [] });
  });

  it('matches a content type by essence and by a type/* range, and names an undeclared one', async () => {
    const d = await parseDescription(DESCRIPTION('3.0.3'), '/d.yaml');
    expect((await check(d, response(200, 'Application/JSON; charset=utf-8', [{ id: 2 }])))!.mismatches).toEqual([]);
    expect((await check(d, response(200, 'text/csv', 'id\n2')))!).toMatchObject({ against: 'GET /things 2XX text/*', mismatches: [] });
    expect((await check(d, response(200, 'image/png', 'x')))!.mismatches).toEqual([{ check: 'contentType', message: 'response content type image/png is not declared (declared: application/json, text/*)' }]);
    expect((await check(d, response(200, undefined, 'x')))!.mismatches).toEqual([{ check: 'contentType', message: 'response has no content type (declared: application/json, text/*)' }]);
  });

  it('reads the OpenAPI 3.0 dialect: a boolean exclusiveMinimum, nullable with an enum', async () => {
    const d = await parseDescription(DESCRIPTION('3.0.3'), '/d.yaml');
    expect((await check(d, response(200, 'application/json', [{ id: 2, note: null }, { id: 3, note: 'a' }])))!.mismatches).toEqual([]);
    const wrong = await check(d, response(200, 'application/json', [{ id: 1 }, { note: 'c' }]));
    expect(wrong!.mismatches).toEqual([
      { check: 'schema', pointer: '/0/id', keyword: 'exclusiveMinimum', message: 'response body /0/id must be > 1 (exclusiveMinimum)' },
      { check: 'schema', pointer: '/1', keyword: 'required', message: "response body /1 must have required property 'id' (required)" },
      { check: 'schema', pointer: '/1/note', keyword: 'enum', message: 'response body /1/note must be equal to one of the allowed values (enum)' },
    ]);
  });

  it('says a body that claims JSON but does not parse is not valid JSON', async () => {
    const d = await parseDescription(DESCRIPTION('3.0.3'), '/d.yaml');
    expect((await check(d, response(200, 'application/json', '{"id":')))!.mismatches).toEqual([{ check: 'schema', keyword: 'json', pointer: '', message: 'response body is not valid JSON' }]);
    // A JSON string value is parsed to a string too: it is valid JSON, and the schema judges it.
    const jsonString = { ...response(200, 'application/json', 'abc'), bytes: Buffer.from('"abc"') };
    expect((await check(d, jsonString))!.mismatches).toEqual([{ check: 'schema', pointer: '', keyword: 'type', message: 'response body must be array (type)' }]);
  });

  it('stops a description pattern that backtracks on the body after the time limit, with a note', async () => {
    const d = await parseDescription(DESCRIPTION('3.1.0').replace('id: { type: integer, minimum: 1, exclusiveMinimum: true }', () => "id: { type: string, pattern: '^(a|a)+$' }"), '/d.yaml');
    const started = Date.now();
    const verdict = await check(d, response(200, 'application/json', [{ id: `${'a'.repeat(40)}b` }]));
    expect(verdict!.notes).toEqual([expect.stringMatching(/checking the body against its schema it ran for more than 1 s and was stopped/)]);
    // Without the limit, 2^40 backtracking steps: far longer than any test runs.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('notes once a schema it cannot compile, and checks the rest', async () => {
    const extra = `
  /broken:
    get:
      operationId: broken
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'other.yaml#/Thing' }`;
    const d = await parseDescription(DESCRIPTION('3.1.0', extra).replace("schema: { $ref: 'other.yaml#/Thing' }", "schema: { $ref: '#/components/schemas/Missing' }"), '/d.yaml');
    const validators = createResponseValidators();
    const op = d.operations.get('broken')!;
    const first = await checkResponse('fail', op, d, response(200, 'application/json', {}), validators);
    expect(first!.notes).toEqual([expect.stringMatching(/^response body not checked against its schema: its schema does not compile: /)]);
    const second = await checkResponse('fail', op, d, response(200, 'application/json', {}), validators);
    expect(second!.notes).toEqual([]);
  });

  it('keeps the declared responses and their schemas through the parsed-description cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parsed-'));
    try {
      const store = parsedStore(dir);
      const parsed = await parseDescription(DESCRIPTION('3.0.3'), '/d.yaml');
      await store.write('/d.yaml', { bodyHash: 'h' }, parsed);
      const cached = (await store.read('/d.yaml', { bodyHash: 'h' }))!;
      expect(cached.operations.get('listThings')!.responses).toEqual({ '2XX': ['application/json', 'text/*'], default: ['application/problem+json'] });
      expect((await check(cached, response(200, 'application/json', [{ id: 'x' }])))!.mismatches).toEqual([{ check: 'schema', pointer: '/0/id', keyword: 'type', message: 'response body /0/id must be integer (type)' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
