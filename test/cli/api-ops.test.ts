/** `tool api ops <name>`: the operations of a registered API's description, as a table or JSON. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { tempHome, tool, type Home } from './auth-harness.js';

const SPEC = fileURLToPath(new URL('../fixtures/cache/small.openapi.yaml', import.meta.url));
let home: Home;

beforeEach(async () => {
  home = await tempHome();
});
afterEach(() => home.remove());

const run = (argv: string[]) => tool(argv, { env: home.env });

describe('tool api ops', () => {
  it('prints a table of operationId, method, path and summary in document order', async () => {
    expect((await run(['api', 'add', 'pets', 'https://api.example.com/v1', '--spec', SPEC])).code).toBe(0);
    const result = await run(['api', 'ops', 'pets']);
    expect(result).toEqual({
      code: 0,
      stdout: ['OPERATION ID  METHOD  PATH           SUMMARY', 'listPets      GET     /pets          List the pets', 'getPet        GET     /pets/{petId}', ''].join('\n'),
      stderr: '',
    });
  });

  it('prints a JSON array with --output json', async () => {
    await run(['api', 'add', 'pets', 'https://api.example.com/v1', '--spec', SPEC]);
    const result = await run(['api', 'ops', 'pets', '--output', 'json']);
    expect(JSON.parse(result.stdout)).toEqual([
      { operationId: 'listPets', method: 'GET', path: '/pets', summary: 'List the pets' },
      { operationId: 'getPet', method: 'GET', path: '/pets/{petId}', summary: null },
    ]);
  });

  it('exits 2 for an API without a description, saying how to add one', async () => {
    await run(['api', 'add', 'bare', 'https://bare.example.com']);
    const result = await run(['api', 'ops', 'bare']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: API "bare" has no description\n  Add one: tool api add bare https://bare.example.com --spec <file|url> --force\n');
  });

  it('exits 2 for an unknown API with the command that adds it', async () => {
    const result = await run(['api', 'ops', 'ghost']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('tool api add ghost <base-url>');
  });

  it('says when the cache is already empty', async () => {
    const result = await run(['cache', 'clear']);
    expect(result).toEqual({ code: 0, stdout: '', stderr: `The description cache was already empty (${home.dir}/cache/tool/descriptions).\n` });
  });
});
