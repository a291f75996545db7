import { describe, expect, it } from '@jest/globals';
import { TransportError } from '../../../src/http/transport-error.js';
import { sendJson, type TestServer, usePipelineFixtures } from './test-server.js';

describe('timeouts, size cap, redirect limit and abort', () => {
  const { pipeline, server } = usePipelineFixtures({ maxRetryDelayMs: 10 });
  const silent = (): Promise<TestServer> => server(() => undefined);
  const failureOf = (promise: Promise<unknown>): Promise<TransportError> =>
    promise.then(
      () => {
        throw new Error('expected a TransportError');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(TransportError);
        return error as TransportError;
      },
    );

  it('rejects with TIMEOUT naming the timeout in seconds', async () => {
    const api = await silent();
    const failure = await failureOf(pipeline({ timeoutMs: 150, retry: 0 }).send({ method: 'GET', url: `${api.origin}/slow`, headers: {} }));
    expect(failure.code).toBe('TIMEOUT');
    expect(failure.message).toBe(`timed out after 0.15 s: GET ${api.origin}/slow`);
  });

  it('retries a timed-out GET before giving up', async () => {
    const api = await silent();
    const failure = await failureOf(pipeline({ timeoutMs: 100, retry: 1 }).send({ method: 'GET', url: `${api.origin}/slow`, headers: {} }));
    expect(failure.code).toBe('TIMEOUT');
    expect(failure.retries).toBe(1);
    expect(api.hits).toHaveLength(2);
  });

  it('rejects a declared body over the cap with RESPONSE_TOO_LARGE naming the limit in MiB', async () => {
    const api = await server((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '4096' });
      res.end(Buffer.alloc(4096));
    });
    const failure = await failureOf(pipeline({ maxResponseBytes: 1024 }).send({ method: 'GET', url: `${api.origin}/big`, headers: {} }));
    expect(failure.code).toBe('RESPONSE_TOO_LARGE');
    expect(failure.message).toBe(`response body exceeds the 0.000977 MiB limit: GET ${api.origin}/big`);
    expect(api.hits).toHaveLength(1);
  });

  it('stops reading a chunked body once it passes the cap', async () => {
    const api = await server((_hit, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(64 * 1024)), 1);
      res.on('close', () => clearInterval(timer));
    });
    const failure = await failureOf(
      pipeline({ maxResponseBytes: 2 * 1024 * 1024 }).send({ method: 'GET', url: `${api.origin}/stream`, headers: {} }),
    );
    expect(failure.code).toBe('RESPONSE_TOO_LARGE');
    expect(failure.message).toBe(`response body exceeds the 2 MiB limit: GET ${api.origin}/stream`);
  });

  it('accepts a body exactly at the cap', async () => {
    const api = await server((_hit, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(1024));
    });
    const response = await pipeline({ maxResponseBytes: 1024 }).send({ method: 'GET', url: `${api.origin}/`, headers: {} });
    expect(response.body).toBe('x'.repeat(1024));
  });

  it('rejects promptly with ABORTED when the signal fires mid-request', async () => {
    const api = await silent();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const failure = await failureOf(
      pipeline({}).send({ method: 'GET', url: `${api.origin}/hang`, headers: {} }, { signal: controller.signal }),
    );
    expect(failure.code).toBe('ABORTED');
    expect(failure.message).toBe(`aborted: GET ${api.origin}/hang`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('rejects promptly with ABORTED during a retry sleep', async () => {
    const api = await server((_hit, res) => sendJson(res, 503, {}, { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const failure = await failureOf(
      pipeline({ maxRetryDelayMs: 60_000 }).send({ method: 'GET', url: `${api.origin}/`, headers: {} }, { signal: controller.signal }),
    );
    expect(failure.code).toBe('ABORTED');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(api.hits).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const api = await server((_hit, res) => sendJson(res, 200, {}));
    const failure = await failureOf(
      pipeline({}).send({ method: 'GET', url: `${api.origin}/`, headers: {} }, { signal: AbortSignal.abort() }),
    );
    expect(failure.code).toBe('ABORTED');
    expect(api.hits).toHaveLength(0);
  });

  it('rejects a redirect loop after 10 redirects', async () => {
    const api = await server((hit, res) => {
      res.writeHead(302, { location: `/hop${hit.url.length}` });
      res.end();
    });
    const failure = await failureOf(pipeline({}).send({ method: 'GET', url: `${api.origin}/`, headers: {} }));
    expect(failure.code).toBe('TRANSPORT_ERROR');
    expect(failure.message).toBe(`too many redirects: GET ${api.origin}/`);
    expect(api.hits).toHaveLength(11);
  });

  it('rejects an unparsable URL with TRANSPORT_ERROR', async () => {
    const failure = await failureOf(pipeline({}).send({ method: 'GET', url: 'not a url?token=abc', headers: {} }));
    expect(failure.code).toBe('TRANSPORT_ERROR');
    expect(failure.message).toBe('invalid URL: GET not a url?token=***');
  });

  it('keeps error messages to one line without a stack', async () => {
    const api = await silent();
    const failure = await failureOf(pipeline({ timeoutMs: 50, retry: 0 }).send({ method: 'GET', url: `${api.origin}/`, headers: {} }));
    expect(failure.message).not.toContain('\n');
    expect(failure.message).not.toMatch(/\bat /);
  });
});
