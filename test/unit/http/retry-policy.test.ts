import { describe, expect, it } from '@jest/globals';
import { retryAfterMs, retryDelayMs } from '../../../src/http/retry-delay.js';
import { shouldRetry } from '../../../src/http/should-retry.js';

const policy = { retry: 2, retryUnsafe: false };

describe('shouldRetry', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries an idempotent GET after status %i', (status) => {
    expect(shouldRetry('GET', { status }, 1, policy)).toBe(true);
  });

  it.each([200, 201, 301, 400, 401, 403, 404, 409, 501, 505])('does not retry status %i', (status) => {
    expect(shouldRetry('GET', { status }, 1, policy)).toBe(false);
  });

  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'get'])('treats %s as idempotent', (method) => {
    expect(shouldRetry(method, { status: 503 }, 1, policy)).toBe(true);
  });

  it.each(['POST', 'PATCH'])('does not retry %s unless retryUnsafe is set', (method) => {
    expect(shouldRetry(method, { status: 503 }, 1, policy)).toBe(false);
    expect(shouldRetry(method, { errorCode: 'ECONNRESET' }, 1, policy)).toBe(false);
    expect(shouldRetry(method, { status: 503 }, 1, { retry: 2, retryUnsafe: true })).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'CONNECTION_REFUSED', 'CONNECTION_RESET', 'TIMEOUT'])(
    'retries the connection error %s',
    (errorCode) => {
      expect(shouldRetry('GET', { errorCode }, 1, policy)).toBe(true);
    },
  );

  it.each(['ENOTFOUND', 'DNS_FAILURE', 'TLS_FAILURE', 'RESPONSE_TOO_LARGE', 'ABORTED', 'TRANSPORT_ERROR'])(
    'does not retry the error %s',
    (errorCode) => {
      expect(shouldRetry('GET', { errorCode }, 1, policy)).toBe(false);
    },
  );

  it('stops once the retry budget is spent', () => {
    expect(shouldRetry('GET', { status: 503 }, 2, policy)).toBe(true);
    expect(shouldRetry('GET', { status: 503 }, 3, policy)).toBe(false);
    expect(shouldRetry('GET', { status: 503 }, 1, { retry: 0, retryUnsafe: true })).toBe(false);
  });
});

describe('retryDelayMs', () => {
  const half = (): number => 0.5;

  it('doubles the jitter ceiling from 100 ms with each attempt', () => {
    expect(retryDelayMs(1, undefined, { maxMs: 60_000, random: half })).toBe(50);
    expect(retryDelayMs(2, undefined, { maxMs: 60_000, random: half })).toBe(100);
    expect(retryDelayMs(4, undefined, { maxMs: 60_000, random: half })).toBe(400);
  });

  it('uses full jitter between zero and the ceiling', () => {
    expect(retryDelayMs(3, undefined, { maxMs: 60_000, random: () => 0 })).toBe(0);
    expect(retryDelayMs(3, undefined, { maxMs: 60_000, random: () => 0.999 })).toBe(399);
    for (let i = 0; i < 50; i++) {
      const ms = retryDelayMs(2, undefined, { maxMs: 60_000 });
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(200);
    }
  });

  it('honours a custom base', () => {
    expect(retryDelayMs(2, undefined, { baseMs: 10, maxMs: 60_000, random: half })).toBe(10);
  });

  it('clamps the backoff to maxMs', () => {
    expect(retryDelayMs(30, undefined, { maxMs: 5_000, random: half })).toBe(5_000);
  });

  it('honours Retry-After in seconds instead of the backoff', () => {
    expect(retryDelayMs(1, '2', { maxMs: 60_000, random: half })).toBe(2_000);
    expect(retryDelayMs(1, ' 0 ', { maxMs: 60_000, random: half })).toBe(0);
  });

  it('honours Retry-After as an HTTP date', () => {
    const now = (): number => Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryDelayMs(1, 'Wed, 21 Oct 2015 07:28:03 GMT', { maxMs: 60_000, now })).toBe(3_000);
    expect(retryDelayMs(1, 'Wed, 21 Oct 2015 07:27:00 GMT', { maxMs: 60_000, now })).toBe(0);
  });

  it('clamps Retry-After to maxMs', () => {
    expect(retryDelayMs(1, '3600', { maxMs: 60_000 })).toBe(60_000);
  });

  it('falls back to the backoff when Retry-After is malformed', () => {
    expect(retryDelayMs(1, 'soon', { maxMs: 60_000, random: half })).toBe(50);
    expect(retryDelayMs(1, '-5', { maxMs: 60_000, random: half })).toBe(50);
    expect(retryDelayMs(1, '', { maxMs: 60_000, random: half })).toBe(50);
  });
});

describe('retryAfterMs', () => {
  const now = (): number => Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads delta-seconds and HTTP dates, a past date as 0', () => {
    expect(retryAfterMs(' 3 ', now)).toBe(3_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:02 GMT', now)).toBe(2_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0);
  });

  it('reads the first value of a repeated header', () => {
    expect(retryAfterMs(['1', '9'], now)).toBe(1_000);
  });

  it('gives undefined for no header or a malformed one, never a year read from a number', () => {
    for (const header of [undefined, [], '', 'soon', '-5', '1.5']) expect(retryAfterMs(header, now)).toBeUndefined();
  });
});
