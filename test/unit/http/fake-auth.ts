/** AuthHook doubles that record how they were called. */

import type { AuthHook } from '../../../src/http/types.js';

export interface RecordingAuth extends AuthHook {
  /** `retryAfter401` of each apply call, in order. */
  calls: boolean[];
}

/** Bearer auth for `origin` that hands out `tokens` in order (the last one repeats). */
export function bearerAuth(origin: string, tokens: string[], refreshOn401 = false): RecordingAuth {
  const calls: boolean[] = [];
  return {
    origin,
    calls,
    refreshOn401,
    describe: () => 'bearer token',
    secretNames: () => ['X-Secret-Token'],
    async apply(req, ctx) {
      calls.push(ctx.retryAfter401);
      const token = tokens[Math.min(calls.length, tokens.length) - 1] ?? '';
      req.headers['Authorization'] = `Bearer ${token}`;
      req.headers['X-Secret-Token'] = `extra-${token}`;
    },
  };
}

/** API-key auth that puts the key in the `api_key` query parameter. */
export function queryKeyAuth(origin: string, key: string): RecordingAuth {
  const calls: boolean[] = [];
  return {
    origin,
    calls,
    describe: () => 'api key in query',
    secretNames: () => ['api_key'],
    async apply(req, ctx) {
      calls.push(ctx.retryAfter401);
      req.url.searchParams.set('api_key', key);
    },
  };
}
