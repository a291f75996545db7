import { gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { type Hit, type TestServer, usePipelineFixtures } from './test-server.js';

describe('request and response bodies', () => {
  const { pipeline, server } = usePipelineFixtures({ retry: 0 });
  /** A server answering every request with this content type and body. */
  const answering = (contentType: string | undefined, body: Buffer | string, status = 200): Promise<TestServer> =>
    server((_hit, res) => {
      res.writeHead(status, contentType === undefined ? {} : { 'content-type': contentType });
      res.end(body);
    });
  /** Parses a received multipart body with an independent parser (undici's). */
  const formDataOf = (hit: Hit): Promise<FormData> =>
    new Response(Uint8Array.from(hit.body), { headers: { 'content-type': String(hit.headers['content-type']) } }).formData();

  it('parses a JSON response', async () => {
    const api = await answering('application/json; charset=utf-8', '{"pets":[{"id":1}]}');
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/pets`, headers: {} });
    expect(response.body).toEqual({ pets: [{ id: 1 }] });
    expect(response.url).toBe(`${api.origin}/pets`);
    expect(response.durationMs).toBeGreaterThan(0);
  });

  it('decompresses a gzip response before parsing it', async () => {
    const api = await server((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync('{"zipped":true}'));
    });
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(response.body).toEqual({ zipped: true });
  });

  it('returns a text response as a string', async () => {
    const api = await answering('text/plain', 'plain words');
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(response.body).toBe('plain words');
  });

  it('returns a binary response as the exact bytes', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 137, 80]);
    const api = await answering('application/octet-stream', bytes);
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(Buffer.isBuffer(response.body)).toBe(true);
    expect(response.body).toEqual(bytes);
  });

  it('returns undefined for a 204 and for HEAD', async () => {
    const api = await answering('application/json', '', 204);
    expect((await pipeline().send({ method: 'DELETE', url: `${api.origin}/pets/1`, headers: {} })).body).toBeUndefined();
    const head = await answering('text/plain', 'ignored');
    const response = await pipeline().send({ method: 'HEAD', url: `${head.origin}/`, headers: {} });
    expect(response.status).toBe(200);
    expect(response.body).toBeUndefined();
  });

  it('lower-cases response headers, joins repeats and keeps set-cookie as an array', async () => {
    const api = await server((_hit, res) => {
      res.writeHead(200, [
        ['X-Rate', 'a'],
        ['x-rate', 'b'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
        ['Content-Type', 'text/plain'],
      ]);
      res.end('ok');
    });
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(response.headers['x-rate']).toBe('a, b');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.headers['content-type']).toBe('text/plain');
  });

  it('sends a JSON bytes body with its content type and lower-cased request headers', async () => {
    const api = await answering('application/json', '{}');
    await pipeline().send({
      method: 'POST',
      url: `${api.origin}/pets`,
      headers: { 'X-Request-Id': 'r1' },
      body: { kind: 'bytes', contentType: 'application/json', data: '{"name":"Rex"}' },
    });
    const hit = api.hits[0];
    expect(hit?.method).toBe('POST');
    expect(hit?.headers['content-type']).toBe('application/json');
    expect(hit?.headers['x-request-id']).toBe('r1');
    expect(hit?.headers['user-agent']).toBe('tool');
    expect(hit?.body.toString()).toBe('{"name":"Rex"}');
  });

  it('lets an explicit Content-Type header win over a bytes body type', async () => {
    const api = await answering('application/json', '{}');
    await pipeline().send({
      method: 'PUT',
      url: `${api.origin}/pets/1`,
      headers: { 'Content-Type': 'application/vnd.pet+json' },
      body: { kind: 'bytes', contentType: 'application/json', data: '{}' },
    });
    expect(api.hits[0]?.headers['content-type']).toBe('application/vnd.pet+json');
  });

  it('delivers a form body intact', async () => {
    const api = await answering('text/plain', 'ok');
    const form = new URLSearchParams({ name: 'Rex & Co', tag: 'good=dog', emoji: '🐕' }).toString();
    await pipeline().send({
      method: 'POST',
      url: `${api.origin}/form`,
      headers: {},
      body: { kind: 'bytes', contentType: 'application/x-www-form-urlencoded', data: form },
    });
    const hit = api.hits[0];
    expect(hit?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(hit?.body.toString()))).toEqual({ name: 'Rex & Co', tag: 'good=dog', emoji: '🐕' });
  });

  it('delivers a multipart body intact, binary parts included', async () => {
    const api = await answering('text/plain', 'ok');
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
    await pipeline().send({
      method: 'POST',
      url: `${api.origin}/upload`,
      headers: { 'Content-Type': 'multipart/form-data' },
      body: {
        kind: 'multipart',
        parts: [
          { name: 'title', value: 'A "quoted" cat\r\nline two' },
          { name: 'photo', value: image, filename: 'cat.png', contentType: 'image/png' },
          { name: 'meta', value: '{"a":1}', contentType: 'application/json' },
        ],
      },
    });
    const hit = api.hits[0] as Hit;
    expect(hit.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(hit.headers['content-length'])).toBe(hit.body.length);
    const form = await formDataOf(hit);
    expect(form.get('title')).toBe('A "quoted" cat\r\nline two');
    const photo = form.get('photo') as File;
    expect(photo.name).toBe('cat.png');
    expect(photo.type).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(image);
    expect(form.get('meta')).toBe('{"a":1}');
  });
});
