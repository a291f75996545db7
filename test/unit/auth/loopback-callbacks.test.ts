/**
 * The authorization-code listener on 127.0.0.1 ends the login only on a callback carrying its own
 * `state`; every stray request is answered with a short page and the wait goes on.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { OAuthError } from '../../../src/auth/errors.js';
import { listenForRedirect, type LoopbackRedirect } from '../../../src/auth/oauth/loopback-redirect.js';

const STATE = 'state-0123456789abcdefgh';

/** GET with node:http; the status, content type and body of the answer. */
function get(url: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    })
      .on('error', reject)
      .end();
  });
}

/** `redirectUri` with the given query parameters. */
function callback(redirect: LoopbackRedirect, params: Record<string, string>, path = '/callback'): string {
  const url = new URL(path, redirect.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/** Whether `promise` is still pending once the event loop has had a few turns. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const settled = await Promise.race([promise.then(() => 'settled', () => 'settled'), new Promise((resolve) => setTimeout(() => resolve(marker), 50))]);
  return settled === marker;
}

describe('the loopback redirect listener', () => {
  let redirect: LoopbackRedirect | undefined;
  afterEach(async () => {
    await redirect?.close();
    redirect = undefined;
  });

  const listen = async () => {
    redirect = await listenForRedirect({ state: STATE, timeoutMs: 10_000 });
    // Rejections are inspected by the tests; keep an early one from counting as unhandled.
    redirect.code.catch(() => undefined);
    return redirect;
  };

  it.each<[string, Record<string, string>, string, number]>([
    ['a callback with a wrong state', { code: 'stolen', state: 'forged' }, '/callback', 400],
    ['a callback without a state', { code: 'stolen' }, '/callback', 400],
    ['a callback with the state but no code', { state: STATE }, '/callback', 400],
    ['an error callback with a wrong state', { error: 'access_denied', state: 'forged' }, '/callback', 400],
    ['an error callback without a state', { error: 'access_denied' }, '/callback', 400],
    ['a request for /favicon.ico', {}, '/favicon.ico', 404],
    ['a request for another path carrying the right state', { code: 'c', state: STATE }, '/other', 404],
  ])('answers %s with a short page and keeps waiting', async (_what, params, path, status) => {
    const listener = await listen();
    const answer = await get(callback(listener, params, path));
    expect(answer.status).toBe(status);
    expect(answer.type).toBe('text/html; charset=utf-8');
    expect(answer.body.length).toBeLessThan(300);
    expect(await pending(listener.code)).toBe(true);
    const done = await get(callback(listener, { code: 'the-code', state: STATE }));
    expect(done.status).toBe(200);
    await expect(listener.code).resolves.toBe('the-code');
  });

  it('keeps waiting through several stray requests, then takes the code of the callback with its state', async () => {
    const listener = await listen();
    await get(callback(listener, {}, '/favicon.ico'));
    await get(callback(listener, { code: 'stolen', state: 'forged' }));
    await get(callback(listener, { error: 'access_denied', state: 'forged' }));
    await get(callback(listener, { code: 'stolen' }));
    expect(await pending(listener.code)).toBe(true);
    await get(callback(listener, { code: 'the-code', state: STATE }));
    await expect(listener.code).resolves.toBe('the-code');
  });

  it('ends the login on an error callback that carries its state', async () => {
    const listener = await listen();
    await get(callback(listener, { error: 'access_denied', state: 'forged' }));
    const answer = await get(callback(listener, { error: 'access_denied', error_description: 'user said no', state: STATE }));
    expect(answer.status).toBe(400);
    const error = await listener.code.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).oauthError).toBe('access_denied');
  });
});
