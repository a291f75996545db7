import { describe, expect, it } from '@jest/globals';
import { TransportError } from '../../../src/http/transport-error.js';
import { closedPort, sendJson, usePipelineFixtures } from './test-server.js';

describe('transport retry', () => {
  const { pipeline, server } = usePipelineFixtures({ maxRetryDelayMs: 20 });

  it('retries a 503 and returns the success that follows', async () => {
    const api = await server((_hit, res, n) => (n === 1 ? sendJson(res, 503, { busy: true }) : sendJson(res, 200, { id: 7 })));
    const response = await pipeline({}).send({ method: 'GET', url: `${api.origin}/pets/7`, headers: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 7 });
    expect(response.retries).toBe(1);
    expect(api.hits).toHaveLength(2);
  });

  it('gives up after the retry budget and returns the last 503', async () => {
    const api = await server((_hit, res, n) => sendJson(res, 503, { attempt: n }));
    const response = await pipeline({ retry: 3 }).send({ method: 'GET', url: `${api.origin}/pets`, headers: {} });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ attempt: 4 });
    expect(response.retries).toBe(3);
    expect(api.hits).toHaveLength(4);
  });

  it('does not retry when retry is 0', async () => {
    const api = await server((_hit, res) => sendJson(res, 502, {}));
    const response = await pipeline({ retry: 0 }).send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(response.status).toBe(502);
    expect(response.retries).toBe(0);
    expect(api.hits).toHaveLength(1);
  });

  it('does not retry a POST unless retryUnsafe is set', async () => {
    const api = await server((_hit, res) => sendJson(res, 503, {}));
    const post = { method: 'POST' as const, url: `${api.origin}/pets`, headers: {}, body: { kind: 'bytes' as const, contentType: 'application/json', data: '{}' } };
    const once = await pipeline({}).send(post);
    expect(once.retries).toBe(0);
    expect(api.hits).toHaveLength(1);

    const unsafe = await pipeline({ retryUnsafe: true }).send(post);
    expect(unsafe.retries).toBe(2);
    expect(api.hits).toHaveLength(4);
    expect(api.hits[3]?.body.toString()).toBe('{}');
  });

  it('does not retry a 404', async () => {
    const api = await server((_hit, res) => sendJson(res, 404, { error: 'no such pet' }));
    const response = await pipeline({}).send({ method: 'GET', url: `${api.origin}/pets/9`, headers: {} });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'no such pet' });
    expect(api.hits).toHaveLength(1);
  });

  it('honours Retry-After, clamped to maxRetryDelayMs', async () => {
    const api = await server((_hit, res, n) => (n === 1 ? sendJson(res, 429, {}, { 'retry-after': '5' }) : sendJson(res, 200, {})));
    const started = performance.now();
    const response = await pipeline({ maxRetryDelayMs: 300 }).send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    expect(response.retries).toBe(1);
    // Jitter alone would wait at most 100 ms; the header asked for 5 s and the cap is 300 ms.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2_000);
    expect(response.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('rejects with CONNECTION_REFUSED after retrying a closed port', async () => {
    const port = await closedPort();
    const error = await pipeline({ retry: 2 })
      .send({ method: 'GET', url: `http://127.0.0.1:${port}/pets`, headers: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    const failure = error as TransportError;
    expect(failure.code).toBe('CONNECTION_REFUSED');
    expect(failure.errno).toBe('ECONNREFUSED');
    expect(failure.retries).toBe(2);
    expect(failure.method).toBe('GET');
    expect(failure.message).toBe(`connection refused: GET http://127.0.0.1:${port}/pets`);
  });

  it('retries a dropped connection and returns the next response', async () => {
    const api = await server((_hit, res, n) => {
      if (n === 1) res.socket?.destroy();
      else sendJson(res, 200, { ok: true });
    });
    const response = await pipeline({}).send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(response.status).toBe(200);
    expect(response.retries).toBe(1);
    expect(api.hits).toHaveLength(2);
  });
});
