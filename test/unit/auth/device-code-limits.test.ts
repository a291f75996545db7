/**
 * Device code polling stays within limits whatever the server sends: an interval of 1..60 s
 * (5 s when absent), slow_down never past 60 s, and a deadline of 15 min when expires_in is
 * missing (30 min at most when it is absurd). Time is simulated: sleep advances the clock.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { AuthError } from '../../../src/auth/errors.js';
import { deviceCodeLogin } from '../../../src/auth/oauth/device-code-flow.js';
import { pollingLifetimeS, pollIntervalS, slowedDownS } from '../../../src/auth/oauth/device-code-timing.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { sendJson, startServer, type TestServer } from '../http/test-server.js';

interface Script {
  /** The device authorization answer's interval and expires_in (a key left out is not sent). */
  device: { interval?: unknown; expires_in?: unknown };
  /** The error of poll n (1-based); undefined approves. */
  poll: (n: number) => string | undefined;
}

describe('device code polling limits', () => {
  let server: TestServer | undefined;
  let pipeline: Pipeline | undefined;
  afterEach(async () => {
    pipeline?.close();
    await server?.close();
  });

  const login = async (script: Script) => {
    let polls = 0;
    server = await startServer((hit, res) => {
      if (hit.url === '/device') return sendJson(res, 200, { device_code: 'd', user_code: 'U', verification_uri: 'https://example.com/device', ...script.device });
      polls += 1;
      const error = script.poll(polls);
      return error === undefined ? sendJson(res, 200, { access_token: 'at' }) : sendJson(res, 400, { error });
    });
    pipeline = createPipeline({ retry: 0 });
    const clock = { now: 1_000_000 };
    const sleeps: number[] = [];
    const outcome = await deviceCodeLogin({
      auth: { type: 'oauth2-device-code', deviceUrl: `${server.origin}/device`, tokenUrl: `${server.origin}/token`, clientId: 'c', scopes: [] },
      pipeline,
      stderr: new PassThrough(),
      now: () => clock.now,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.now += ms;
        return true;
      },
    }).then(
      (grant) => ({ grant, error: undefined }),
      (error: unknown) => ({ grant: undefined, error: error as AuthError }),
    );
    return { ...outcome, sleeps, polls, elapsedMs: clock.now - 1_000_000 };
  };
  const pendingUntil = (approval: number) => (n: number) => (n < approval ? 'authorization_pending' : undefined);

  it('polls no faster than once a second when the server says interval 0', async () => {
    const { grant, sleeps } = await login({ device: { interval: 0, expires_in: 600 }, poll: pendingUntil(3) });
    expect(grant?.accessToken).toBe('at');
    expect(sleeps).toEqual([1000, 1000, 1000]);
  });

  it('polls every 5 seconds when the server sends no interval', async () => {
    const { sleeps } = await login({ device: { expires_in: 600 }, poll: pendingUntil(2) });
    expect(sleeps).toEqual([5000, 5000]);
  });

  it('polls at least once a minute when the server asks for an hour', async () => {
    const { grant, sleeps } = await login({ device: { interval: 3600, expires_in: 600 }, poll: pendingUntil(2) });
    expect(grant?.accessToken).toBe('at');
    expect(sleeps).toEqual([60_000, 60_000]);
  });

  it('adds 5 seconds per slow_down but never goes past 60 seconds', async () => {
    const { sleeps } = await login({ device: { interval: 50, expires_in: 900 }, poll: (n) => (n < 5 ? 'slow_down' : undefined) });
    expect(sleeps).toEqual([50_000, 55_000, 60_000, 60_000, 60_000]);
  });

  it('gives up after 15 minutes when the server sends no expires_in', async () => {
    const { error, elapsedMs, sleeps } = await login({ device: { interval: 60 }, poll: pendingUntil(1_000) });
    expect(error?.code).toBe('DEVICE_CODE_EXPIRED');
    expect(error?.message).toBe('the login was not approved within 15 min');
    expect(error?.hint).toContain('tool auth login');
    expect(elapsedMs).toBe(15 * 60_000);
    expect(sleeps).toHaveLength(15);
  });

  it('gives up after 30 minutes however long expires_in claims the code lives', async () => {
    const { error, elapsedMs } = await login({ device: { interval: 60, expires_in: 1e9 }, poll: pendingUntil(1_000) });
    expect(error?.code).toBe('DEVICE_CODE_EXPIRED');
    expect(error?.message).toBe('the device code expired before the login was approved');
    expect(elapsedMs).toBe(30 * 60_000);
  });

  it('does not sleep past the deadline of a short-lived code', async () => {
    const { error, sleeps } = await login({ device: { interval: 60, expires_in: 90 }, poll: pendingUntil(1_000) });
    expect(error?.code).toBe('DEVICE_CODE_EXPIRED');
    expect(sleeps).toEqual([60_000, 30_000]);
  });
});

describe('device code timing policy', () => {
  it.each([
    [undefined, 5],
    [0, 1],
    [0.2, 1],
    [7, 7],
    [60, 60],
    [86_400, 60],
  ])('polls every N seconds for a server interval of %p', (interval, expected) => {
    expect(pollIntervalS(interval)).toBe(expected);
  });

  it.each([
    [5, 10],
    [55, 60],
    [58, 60],
    [60, 60],
  ])('slows from %p s to %p s on slow_down', (from, to) => {
    expect(slowedDownS(from)).toBe(to);
  });

  it.each([
    [undefined, 900],
    [0, 900],
    [600, 600],
    [1800, 1800],
    [1e9, 1800],
  ])('polls for at most N seconds when expires_in is %p', (expiresIn, expected) => {
    expect(pollingLifetimeS(expiresIn)).toBe(expected);
  });
});
