/** What a direct call prints when stdout is a terminal: indented JSON, text with a newline, no binary dump. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startServer, type TestServer } from '../unit/http/test-server.js';
import { runTool } from './run-tool.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer((hit, res) => {
    if (hit.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"name":"Rex","tags":["good"]}');
    } else if (hit.url === '/lines') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('one\ntwo\n');
    } else if (hit.url === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain words');
    } else {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from([0, 1, 2, 3]));
    }
  });
});
afterAll(() => server.close());

describe('direct calls on a terminal', () => {
  it('indents a JSON body', async () => {
    const result = await runTool(['get', `${server.origin}/json`], { stdoutIsTTY: true });
    expect(result).toEqual({ code: 0, stdout: '{\n  "name": "Rex",\n  "tags": [\n    "good"\n  ]\n}\n', stderr: '' });
  });

  it('ends a text body with a newline', async () => {
    const result = await runTool(['get', `${server.origin}/text`], { stdoutIsTTY: true });
    expect(result.stdout).toBe('plain words\n');
  });

  it('adds no second newline to a text body that ends with one', async () => {
    const result = await runTool(['get', `${server.origin}/lines`], { stdoutIsTTY: true });
    expect(result.stdout).toBe('one\ntwo\n');
  });

  it('adds no newline to a text body when stdout is not a terminal', async () => {
    const result = await runTool(['get', `${server.origin}/text`], { stdoutIsTTY: false });
    expect(result.stdout).toBe('plain words');
  });

  it('does not dump a binary body, and says how to save it', async () => {
    const result = await runTool(['get', `${server.origin}/bin`], { stdoutIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('note: the body is binary (4 bytes, application/octet-stream) and is not shown on a terminal; redirect stdout to a file to save it\n');
  });

  it('keeps the compact bytes when stdout is not a terminal', async () => {
    const result = await runTool(['get', `${server.origin}/json`], { stdoutIsTTY: false });
    expect(result.stdout).toBe('{"name":"Rex","tags":["good"]}');
  });

  it('refuses a body on HEAD', async () => {
    const before = server.hits.length;
    const result = await runTool(['head', `${server.origin}/json`, '-d', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('a HEAD request has no body');
    expect(server.hits.length).toBe(before);
  });

  it.each([
    ['-H', 'NoColon', '-H "NoColon" is not "Name: value"'],
    ['--tool-retry', 'many', '--tool-retry must be a whole number'],
    ['--tool-timeout', '0', '--tool-timeout must be more than 0'],
  ])('exits 2 for %s %s', async (flag, value, message) => {
    const result = await runTool(['get', `${server.origin}/json`, flag, value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
