import { describe, expect, it } from '@jest/globals';
import { TransportError } from '../../../src/http/transport-error.js';
import { bearerAuth, queryKeyAuth } from './fake-auth.js';
import { closedPort, sendJson, type TestServer, usePipelineFixtures } from './test-server.js';

describe('credentials', () => {
  const { pipeline, server } = usePipelineFixtures({ retry: 0 });
  const ok = (): Promise<TestServer> => server((_hit, res) => sendJson(res, 200, { ok: true }));

  it('applies auth to a request for its origin', async () => {
    const api = await ok();
    const auth = bearerAuth(api.origin, ['t1']);
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/me`, headers: {}, auth });
    expect(response.status).toBe(200);
    expect(auth.calls).toEqual([false]);
    expect(api.hits[0]?.headers['authorization']).toBe('Bearer t1');
    expect(api.hits[0]?.headers['x-secret-token']).toBe('extra-t1');
  });

  it('does not apply auth to a request for another origin', async () => {
    const api = await ok();
    const other = await ok();
    const auth = bearerAuth(api.origin, ['t1']);
    await pipeline().send({ method: 'GET', url: `${other.origin}/me`, headers: {}, auth });
    expect(auth.calls).toEqual([]);
    expect(other.hits[0]?.headers['authorization']).toBeUndefined();
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const elsewhere = await ok();
    const api = await server((_hit, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}/landing?x=1` });
      res.end();
    });
    const auth = bearerAuth(api.origin, ['t1']);
    const response = await pipeline().send({
      method: 'GET',
      url: `${api.origin}/start`,
      headers: { Cookie: 'sid=42', 'X-Api-Key': 'k-123', Accept: 'application/json' },
      auth,
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${elsewhere.origin}/landing?x=1`);
    expect(api.hits[0]?.headers['authorization']).toBe('Bearer t1');
    const landed = elsewhere.hits[0];
    expect(landed?.url).toBe('/landing?x=1');
    expect(landed?.headers['authorization']).toBeUndefined();
    expect(landed?.headers['x-secret-token']).toBeUndefined();
    expect(landed?.headers['cookie']).toBeUndefined();
    expect(landed?.headers['x-api-key']).toBeUndefined();
    expect(landed?.headers['accept']).toBe('application/json');
  });

  it('drops a hand-written Authorization header on a cross-origin redirect without an auth hook', async () => {
    const elsewhere = await ok();
    const api = await server((_hit, res) => {
      res.writeHead(307, { location: `${elsewhere.origin}/landing` });
      res.end();
    });
    await pipeline().send({ method: 'GET', url: `${api.origin}/start`, headers: { Authorization: 'Basic dXNlcjpwdw==' } });
    expect(api.hits[0]?.headers['authorization']).toBe('Basic dXNlcjpwdw==');
    expect(elsewhere.hits[0]?.headers['authorization']).toBeUndefined();
  });

  it('keeps credentials on a same-origin redirect', async () => {
    const api = await server((hit, res) => {
      if (hit.url === '/old') {
        res.writeHead(301, { location: '/new' });
        res.end();
      } else sendJson(res, 200, { at: hit.url });
    });
    const auth = bearerAuth(api.origin, ['t1']);
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/old`, headers: {}, auth });
    expect(response.body).toEqual({ at: '/new' });
    expect(api.hits.map((hit) => hit.headers['authorization'])).toEqual(['Bearer t1', 'Bearer t1']);
  });

  it('refreshes credentials after a 401 and resends once', async () => {
    const api = await server((hit, res) =>
      hit.headers['authorization'] === 'Bearer fresh' ? sendJson(res, 200, { ok: true }) : sendJson(res, 401, { error: 'expired' }),
    );
    const auth = bearerAuth(api.origin, ['stale', 'fresh'], true);
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/me`, headers: {}, auth });
    expect(response.status).toBe(200);
    expect(auth.calls).toEqual([false, true]);
    expect(api.hits.map((hit) => hit.headers['authorization'])).toEqual(['Bearer stale', 'Bearer fresh']);
    expect(response.retries).toBe(0);
  });

  it('returns the second 401 instead of refreshing again', async () => {
    const api = await server((_hit, res) => sendJson(res, 401, { error: 'nope' }));
    const auth = bearerAuth(api.origin, ['a', 'b', 'c'], true);
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/me`, headers: {}, auth });
    expect(response.status).toBe(401);
    expect(auth.calls).toEqual([false, true]);
    expect(api.hits).toHaveLength(2);
  });

  it('does not resend a 401 when the scheme cannot refresh', async () => {
    const api = await server((_hit, res) => sendJson(res, 401, {}));
    const auth = bearerAuth(api.origin, ['a'], false);
    const response = await pipeline().send({ method: 'GET', url: `${api.origin}/me`, headers: {}, auth });
    expect(response.status).toBe(401);
    expect(api.hits).toHaveLength(1);
  });

  it('sends a query API key but keeps it out of error messages', async () => {
    const api = await ok();
    await pipeline().send({ method: 'GET', url: `${api.origin}/pets?limit=2`, headers: {}, auth: queryKeyAuth(api.origin, 'k-secret') });
    expect(api.hits[0]?.url).toBe('/pets?limit=2&api_key=k-secret');

    const port = await closedPort();
    const origin = `http://127.0.0.1:${port}`;
    const error = await pipeline()
      .send({ method: 'GET', url: `${origin}/pets?limit=2`, headers: {}, auth: queryKeyAuth(origin, 'k-secret') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toBe(`connection refused: GET ${origin}/pets?limit=2&api_key=***`);
    expect(JSON.stringify(error)).not.toContain('k-secret');
  });
});
