import { describe, expect, it } from '@jest/globals';
import { formatDryRun } from '../../../src/http/format-dry-run.js';
import { redactRequest } from '../../../src/output/redact.js';
import type { HttpRequest } from '../../../src/http/types.js';
import { bearerAuth } from '../http/fake-auth.js';

const auth = { ...bearerAuth('https://api.example.com', ['t']), secretNames: () => ['X-Secret-Token', 'sig'] };

describe('redactRequest', () => {
  it('masks the always-secret headers whatever their case', () => {
    const shown = redactRequest({
      method: 'GET',
      url: 'https://api.example.com/pets',
      headers: { Authorization: 'Bearer abc', cookie: 'sid=1', 'X-API-KEY': 'k', 'Proxy-Authorization': 'Basic x', Accept: 'application/json' },
    });
    expect(shown.headers).toEqual({
      Authorization: '***',
      cookie: '***',
      'X-API-KEY': '***',
      'Proxy-Authorization': '***',
      Accept: 'application/json',
    });
  });

  it('masks headers and query parameters the auth hook names', () => {
    const shown = redactRequest({
      method: 'GET',
      url: 'https://api.example.com/pets?limit=5&SIG=abc123&api_key=k1#frag',
      headers: { 'x-secret-token': 's3', 'X-Trace': 'on' },
      auth,
    });
    expect(shown.headers).toEqual({ 'x-secret-token': '***', 'X-Trace': 'on' });
    expect(shown.url).toBe('https://api.example.com/pets?limit=5&SIG=***&api_key=***');
  });

  it('masks a password in the URL', () => {
    const shown = redactRequest({ method: 'GET', url: 'https://user:hunter2@api.example.com/pets', headers: {} });
    expect(shown.url).toBe('https://user:***@api.example.com/pets');
  });

  it('shows a JSON body parsed and a text body as a string', () => {
    const json = redactRequest({
      method: 'POST',
      url: 'https://api.example.com/pets',
      headers: {},
      body: { kind: 'bytes', contentType: 'application/json', data: '{"name":"Rex"}' },
    });
    expect(json.body).toEqual({ name: 'Rex' });
    const text = redactRequest({
      method: 'POST',
      url: 'https://api.example.com/notes',
      headers: {},
      body: { kind: 'bytes', contentType: 'text/plain', data: Buffer.from('hello') },
    });
    expect(text.body).toBe('hello');
  });

  it('masks secret fields of a form body', () => {
    const shown = redactRequest({
      method: 'POST',
      url: 'https://api.example.com/login',
      headers: {},
      body: { kind: 'bytes', contentType: 'application/x-www-form-urlencoded', data: 'user=ann&sig=zzz' },
      auth,
    });
    expect(shown.body).toBe('user=ann&sig=***');
  });

  it('lists multipart parts with binary values as byte counts', () => {
    const shown = redactRequest({
      method: 'POST',
      url: 'https://api.example.com/upload',
      headers: {},
      body: {
        kind: 'multipart',
        parts: [
          { name: 'title', value: 'cat' },
          { name: 'file', value: Buffer.alloc(42), filename: 'cat.png', contentType: 'image/png' },
        ],
      },
    });
    expect(shown.body).toEqual([
      { name: 'title', value: 'cat' },
      { name: 'file', value: '<42 bytes>' },
    ]);
  });

  it('shows a binary bytes body as its size', () => {
    const shown = redactRequest({
      method: 'PUT',
      url: 'https://api.example.com/blob',
      headers: {},
      body: { kind: 'bytes', contentType: 'application/octet-stream', data: Buffer.alloc(7) },
    });
    expect(shown.body).toBe('<7 bytes>');
  });
});

describe('formatDryRun', () => {
  it('prints the step line, the headers as JSON and the body as JSON, secrets masked', () => {
    const req: HttpRequest = {
      method: 'POST',
      url: 'https://api.example.com/pets?sig=abc',
      headers: { Authorization: 'Bearer secret-token', 'Content-Type': 'application/json' },
      body: { kind: 'bytes', contentType: 'application/json', data: '{"name":"Rex","tags":["a"]}' },
      auth,
    };
    const text = formatDryRun('createPet', req);
    expect(text).toBe(
      [
        'createPet POST https://api.example.com/pets?sig=***',
        '{"Authorization":"***","Content-Type":"application/json"}',
        '{"name":"Rex","tags":["a"]}',
      ].join('\n'),
    );
    expect(text).not.toContain('secret-token');
  });

  it('prints null for a request without a body', () => {
    const text = formatDryRun('getPet', { method: 'GET', url: 'https://api.example.com/pets/1', headers: {} });
    expect(text.split('\n')).toEqual(['getPet GET https://api.example.com/pets/1', '{}', 'null']);
  });
});
